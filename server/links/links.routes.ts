import { linkMessages } from '@common/links/link-messages';
import { bulkDeleteResponseSchema, bulkDeleteSchema, bulkUpdateResponseSchema, bulkUpdateSchema } from '@common/links/bulk-schemas';
import {
  bulkCreateSchema,
  bulkResponseSchema,
  type BulkResult,
  createLinkSchema,
  linkListSchema,
  linkResponseSchema,
  listLinksQuerySchema,
  tagListSchema,
  updateLinkSchema,
  type Link,
} from '@common/links/link-schemas';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { requireUser } from '../auth/require-user';
import { openDatabaseReader } from '../db/database-reader';
import { SEARCH_PAGE_CACHE_KIB } from '../db/sqlite-connection';
import { AppError } from '../http/app-error';
import { idempotencyKeyOf, withIdempotency } from '../idempotency/idempotency';
import { createLink } from './create-link';
import { createOne } from './link-batch';
import { bulkUpdateLinks } from './link-bulk-edit';
import { deleteWorkspaceLinks } from './link-delete';
import { linkActorFor } from './link-actor';
import { editedLinkForApi, linksForApi } from './link-answer';
import { findLinks } from './link-list';
import { linkImportRoutes } from './link-import.routes';
import { previewImageRoutes } from '../previews/preview-image.routes';
import { createCreationQuota } from './creation-quota';
import { rowToLink } from './link-mapper';
import { editLink, freeFormerAlias } from './link-edit';
import { chooseWinner } from './link-winner';
import { linkQrRoute } from './link-qr';
import { exportFilename, linksCsv } from './link-export';
import { tagsOf, workspaceTags } from './link-tags';
import { findWorkspaceLink, linksStillExist } from './links.queries';
import { named } from '../http/plugin-name';

const idParams = z.object({ id: z.string() });
const addressParams = z.object({ id: z.string(), address: z.string() });
const winnerParams = z.object({ id: z.string(), index: z.string() });

/** A link id from the path; anything but a positive integer names no link. */
function linkIdOf(raw: string): number {
  const id = /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw new AppError('not_found', linkMessages.notFound);
  return id;
}


/**
 * A workspace's links: list (paged, filtered), create, one, delete. Every route needs a session or
 * a token, and acts in the workspace linkActorFor answers: 'read' to look, 'write' to change.
 */
export async function linksRoutes(app: FastifyInstance, context: AppContext) {
  const { database } = context;
  const { db } = database;
  // The list, its search and its totals are read off the event loop (SQLite: on a thread).
  const reader = openDatabaseReader(database, app.log, 'links', { pageCacheKib: SEARCH_PAGE_CACHE_KIB });
  app.addHook('onClose', () => reader.close());
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.addHook('preHandler', requireUser);
  // Multipart, in a scope of its own (inherits the hook above).
  await app.register(named('linkImportRoutes', (scope) => linkImportRoutes(scope, context)));
  await app.register(named('previewImageRoutes', (scope) => previewImageRoutes(scope, context, linkIdOf)));

  routes.get(
    '/api/links',
    { schema: { querystring: listLinksQuerySchema, response: { 200: linkListSchema } } },
    async (request) => findLinks(reader, context, (await linkActorFor(request, db, 'read')).workspace, request.query),
  );

  const creationQuota = createCreationQuota(db, context.config.linksPerHour);
  routes.post(
    '/api/links',
    // strict: a field the API does not know (userId, shortCode, clicks...) is refused, not ignored.
    { schema: { body: createLinkSchema.strict(), response: { 201: linkResponseSchema } } },
    async (request, reply) => {
      const actor = await linkActorFor(request, db, 'write');
      const userId = actor.user.id;
      const call = {
        userId,
        key: idempotencyKeyOf(request),
        // The workspace in the scope: the same key and body sent to another workspace is another request.
        scope: `POST /api/links in ${actor.workspace.id}`,
        body: request.body,
        stillExists: (answer: { link: Link }) => linksStillExist(db, actor.workspace.id, [answer.link]),
      };
      // A replay creates nothing, so it is not counted against the hour's quota.
      const answer = await withIdempotency(db, call, async () => {
        const row = await creationQuota.run(userId, reply, (claim) => createLink(context, actor, request.body, undefined, claim));
        const tags = (await tagsOf(db, [row.id])).get(row.id);
        const link = rowToLink(row, context, { workspace: actor.workspace.slug, createdBy: actor.user, domain: row.domainHostname, tags });
        return { statusCode: 201 as const, body: { link } };
      });
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(answer.statusCode).send(answer.body);
    },
  );

  routes.post(
    '/api/links/bulk',
    { schema: { body: bulkCreateSchema, response: { 200: bulkResponseSchema } } },
    async (request, reply) => {
      const actor = await linkActorFor(request, db, 'write');
      const userId = actor.user.id;
      const call = {
        userId,
        key: idempotencyKeyOf(request),
        scope: `POST /api/links/bulk in ${actor.workspace.id}`,
        body: request.body,
        stillExists: (answer: { results: BulkResult[] }) =>
          linksStillExist(db, actor.workspace.id, answer.results.flatMap((result) => ('link' in result ? [result.link] : []))),
      };
      const answer = await withIdempotency(db, call, async () => {
        const results = [];
        // In order, one at a time: each counts against the hour's quota as a single creation does.
        for (const body of request.body.links) {
          results.push(await createOne(context, actor, body, (create) => creationQuota.run(userId, reply, create)));
        }
        return { statusCode: 200 as const, body: { results } };
      });
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(answer.statusCode).send(answer.body);
    },
  );

  routes.get(
    '/api/links/:id',
    { schema: { params: idParams, response: { 200: linkResponseSchema } } },
    async (request) => {
      const { workspace } = await linkActorFor(request, db, 'read');
      const row = await findWorkspaceLink(db, workspace.id, linkIdOf(request.params.id));
      if (!row) throw new AppError('not_found', linkMessages.notFound);
      const [link] = await linksForApi(db, context, workspace.slug, [row]);
      return { link: link! };
    },
  );

  linkQrRoute(app, context, linkIdOf);

  routes.patch(
    '/api/links/:id',
    { schema: { params: idParams, body: updateLinkSchema, response: { 200: linkResponseSchema } } },
    async (request) => {
      const actor = await linkActorFor(request, db, 'write');
      return editedLinkForApi(context, actor, await editLink(context, actor, linkIdOf(request.params.id), request.body, request.log));
    },
  );

  // 'Elegir ganador': 409 when the link has no A/B test running (link-winner.ts).
  routes.post(
    '/api/links/:id/variants/:index/winner',
    { schema: { params: winnerParams, response: { 200: linkResponseSchema } }, config: { errorStatuses: [409] } },
    async (request) => {
      const actor = await linkActorFor(request, db, 'write');
      return editedLinkForApi(context, actor, await chooseWinner(context, actor, linkIdOf(request.params.id), request.params.index, request.log));
    },
  );

  routes.get('/api/links.csv', async (request, reply) => {
    const { workspace } = await linkActorFor(request, db, 'read');
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${exportFilename(Date.now())}"`)
      .header('cache-control', 'private, no-store')
      .send(Readable.from(linksCsv(reader, context.config, workspace.id)));
  });

  routes.get('/api/tags', { schema: { response: { 200: tagListSchema } } }, async (request) => {
    const { workspace } = await linkActorFor(request, db, 'read');
    return { tags: await workspaceTags(reader, workspace.id) };
  });

  routes.delete('/api/links/:id/addresses/:address', { schema: { params: addressParams } }, async (request, reply) => {
    await freeFormerAlias(context, await linkActorFor(request, db, 'write'), linkIdOf(request.params.id), request.params.address);
    return reply.status(204).send();
  });

  routes.delete('/api/links/:id', { schema: { params: idParams } }, async (request, reply) => {
    const actor = await linkActorFor(request, db, 'write');
    const deleted = await deleteWorkspaceLinks(context, actor, [linkIdOf(request.params.id)], request.log);
    if (deleted.length === 0) throw new AppError('not_found', linkMessages.notFound);
    return reply.status(204).send();
  });

  routes.post(
    '/api/links/bulk-update',
    { schema: { body: bulkUpdateSchema, response: { 200: bulkUpdateResponseSchema } } },
    async (request) => bulkUpdateLinks(context, await linkActorFor(request, db, 'write'), request.body.ids, request.body.changes),
  );

  routes.post(
    '/api/links/bulk-delete',
    { schema: { body: bulkDeleteSchema, response: { 200: bulkDeleteResponseSchema } } },
    async (request) => ({ deleted: (await deleteWorkspaceLinks(context, await linkActorFor(request, db, 'write'), request.body.ids, request.log)).length }),
  );
}
