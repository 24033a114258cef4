import { adminListQuerySchema } from '@common/admin/admin-schemas';
import { workspaceMessages as m } from '@common/workspaces/workspace-messages';
import { type AdminWorkspace, adminWorkspacesResponseSchema } from '@common/workspaces/workspace-schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { signedInUser } from '../auth/require-user';
import type { DatabaseReader } from '../db/database-reader';
import { AppError } from '../http/app-error';
import { deleteWorkspace } from '../workspaces/delete-workspace';
import { type AdminWorkspaceRow, findAdminWorkspace, searchWorkspaces } from './admin-workspaces.queries';
import { ADMIN_PAGE_SIZE } from './admin-users.queries';
import { recordAudit } from './audit-log';

const idParams = z.object({ id: z.coerce.number().int().positive() });

export const adminWorkspaceOf = (row: AdminWorkspaceRow): AdminWorkspace => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  personal: row.personal_user_id !== null,
  members: row.members,
  links: row.links,
  clicks: row.clicks,
  createdAt: new Date(Number(row.created_at)).toISOString(),
});

/** /api/admin/workspaces: search every workspace, delete a team's. */
export async function adminWorkspacesRoutes(app: FastifyInstance, context: AppContext, reader: DatabaseReader) {
  const { db } = context.database;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/admin/workspaces',
    { schema: { querystring: adminListQuerySchema, response: { 200: adminWorkspacesResponseSchema } } },
    async (request) => {
      const rows = await searchWorkspaces(reader, request.query.q, request.query.cursor);
      const page = rows.slice(0, ADMIN_PAGE_SIZE);
      return { workspaces: page.map(adminWorkspaceOf), nextCursor: rows.length > ADMIN_PAGE_SIZE ? page.at(-1)!.id : null };
    },
  );

  routes.delete('/api/admin/workspaces/:id', { schema: { params: idParams } }, async (request, reply) => {
    const me = signedInUser(request);
    const target = await findAdminWorkspace(db, request.params.id);
    if (!target) throw new AppError('not_found', m.notFound);
    // A personal workspace is its account's: deleting the account (/api/admin/users/:id) takes it.
    if (target.personal_user_id !== null) throw new AppError('conflict', m.personalDeletedWithAccount);
    const deleted = await deleteWorkspace(context, target.id, request.log);
    if (deleted) await recordAudit(db, me, 'workspace.delete', deleted.slug, `${deleted.name} · ${deleted.links} links`);
    return reply.status(204).send();
  });
}
