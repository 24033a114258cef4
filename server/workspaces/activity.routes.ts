import { type ActivityAction, activityActions, activityListSchema, activityQuerySchema } from '@common/workspaces/workspace-schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { requireUser } from '../auth/require-user';
import { slugParams } from './route-params';
import { workspaceFor } from './workspace-access';

// The cursor is the id of the last entry of the page before: entries only ever get newer ids.
const pageQuery = activityQuerySchema.extend({ cursor: z.coerce.number().int().positive().optional() });

/** GET /api/workspaces/:slug/activity: who did what, newest first, a page at a time. */
export async function activityRoutes(app: FastifyInstance, context: AppContext) {
  const { db } = context.database;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/workspaces/:slug/activity',
    { schema: { params: slugParams, querystring: pageQuery, response: { 200: activityListSchema } }, preHandler: requireUser },
    async (request) => {
      const workspace = await workspaceFor(request, db, 'read', request.params.slug);
      const { cursor, limit } = request.query;
      let query = db
        .selectFrom('workspace_activity')
        .select(['id', 'action', 'actor_id', 'actor_name', 'target', 'detail', 'created_at'])
        .where('workspace_id', '=', workspace.id)
        // Only what this release can name (a newer one's entries wait for it).
        .where('action', 'in', activityActions)
        .orderBy('id', 'desc')
        .limit(limit + 1);
      if (cursor !== undefined) query = query.where('id', '<', cursor);
      const rows = await query.execute();
      const page = rows.slice(0, limit);
      return {
        entries: page.map((row) => ({
          id: Number(row.id),
          action: row.action as ActivityAction,
          actor: { id: row.actor_id === null ? null : Number(row.actor_id), name: row.actor_name },
          target: row.target,
          detail: row.detail,
          at: new Date(Number(row.created_at)).toISOString(),
        })),
        nextCursor: rows.length > limit ? String(page.at(-1)!.id) : null,
      };
    },
  );
}
