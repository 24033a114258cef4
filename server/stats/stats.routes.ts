import { linkMessages } from '@common/links/link-messages';
import { linkStatsSchema, statsQuerySchema } from '@common/stats/stats-schemas';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { requireUser } from '../auth/require-user';
import { AppError } from '../http/app-error';
import { findWorkspaceLink } from '../links/links.queries';
import { workspaceFor } from '../workspaces/workspace-access';
import { clicksCsv, csvFilename } from './csv-export';
import { statsOfLink } from './link-stats';
import { openDatabaseReader } from '../db/database-reader';
import { SEARCH_PAGE_CACHE_KIB } from '../db/sqlite-connection';

const idParams = z.object({ id: z.string() });

/** A link id from the path; anything but a positive integer names no link (404, as in the links API). */
function linkIdOf(raw: string): number {
  const id = /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw new AppError('not_found', linkMessages.notFound);
  return id;
}

/**
 * Statistics and the CSV export of one of the links of the caller's workspace (a viewer's
 * included); another workspace's link is not found.
 */
export async function statsRoutes(app: FastifyInstance, context: AppContext) {
  const { db } = context.database;
  // The links list's settings: with SQLite the two share one thread (database-reader.ts).
  const reader = openDatabaseReader(context.database, app.log, 'stats', { pageCacheKib: SEARCH_PAGE_CACHE_KIB });
  app.addHook('onClose', () => reader.close());
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.addHook('preHandler', requireUser);

  async function workspaceLink(request: FastifyRequest, rawId: string) {
    const workspace = await workspaceFor(request, db, 'read');
    const link = await findWorkspaceLink(db, workspace.id, linkIdOf(rawId));
    if (!link) throw new AppError('not_found', linkMessages.notFound);
    return link;
  }

  routes.get(
    '/api/links/:id/stats',
    { schema: { params: idParams, querystring: statsQuerySchema, response: { 200: linkStatsSchema } } },
    async (request, reply) => {
      const link = await workspaceLink(request, request.params.id);
      const stats = await statsOfLink(reader, link, request.query.range);
      // Private to the workspace, and new clicks arrive all the time.
      void reply.header('cache-control', 'private, no-store');
      return stats;
    },
  );

  routes.get('/api/links/:id/clicks.csv', { schema: { params: idParams } }, async (request, reply) => {
    const link = await workspaceLink(request, request.params.id);
    const filename = csvFilename(link.short_url, Date.now());
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'private, no-store')
      .send(Readable.from(clicksCsv(reader, Number(link.id), link.original_url)));
  });
}
