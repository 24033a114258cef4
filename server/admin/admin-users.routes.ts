import { adminMessages as m } from '@common/admin/admin-messages';
import {
  type AdminUser,
  adminListQuerySchema,
  adminUserPatchSchema,
  adminUserResponseSchema,
  adminUsersResponseSchema,
} from '@common/admin/admin-schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import type { DatabaseReader } from '../db/database-reader';
import { signedInUser } from '../auth/require-user';
import { AppError } from '../http/app-error';
import { recordAudit } from './audit-log';
import { ADMIN_PAGE_SIZE, type AdminUserRow, countActiveAdmins, findAdminUser, searchUsers } from './admin-users.queries';
import { deleteUserAccount } from './delete-user';
import { endUserAccess } from './end-user-access';

const idParams = z.object({ id: z.coerce.number().int().positive() });

export function adminUserOf(row: AdminUserRow): AdminUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    disabled: row.disabled_at !== null,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    links: row.links,
    clicks: row.clicks,
  };
}

const conflict = (message: string) => new AppError('conflict', message);

/** /api/admin/users: search, disable or enable, make admin or not, delete. */
export async function adminUsersRoutes(app: FastifyInstance, context: AppContext, reader: DatabaseReader) {
  const { db } = context.database;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  const found = async (id: number) => {
    const row = await findAdminUser(db, id);
    if (!row) throw new AppError('not_found', m.userNotFound);
    return row;
  };
  /** Removing `target` from the admins (by role, disabling or deletion) must leave one. */
  const keepsAnAdmin = async (target: AdminUserRow) => {
    if (target.role === 'admin' && target.disabled_at === null && (await countActiveAdmins(db)) <= 1) throw conflict(m.lastAdmin);
  };

  routes.get(
    '/api/admin/users',
    { schema: { querystring: adminListQuerySchema, response: { 200: adminUsersResponseSchema } } },
    async (request) => {
      const rows = await searchUsers(reader, request.query.q, request.query.cursor);
      const page = rows.slice(0, ADMIN_PAGE_SIZE);
      return { users: page.map(adminUserOf), nextCursor: rows.length > ADMIN_PAGE_SIZE ? page.at(-1)!.id : null };
    },
  );

  routes.patch(
    '/api/admin/users/:id',
    { schema: { params: idParams, body: adminUserPatchSchema, response: { 200: adminUserResponseSchema } } },
    async (request) => {
      const me = signedInUser(request);
      const target = await found(request.params.id);
      const { disabled, role } = request.body;
      if (disabled === true && target.disabled_at === null) {
        if (target.id === me.id) throw conflict(m.notYourself);
        await keepsAnAdmin(target);
        await db.updateTable('users').set({ disabled_at: Date.now() }).where('id', '=', target.id).execute();
        await endUserAccess(context, target.id);
        await recordAudit(db, me, 'user.disable', target.email);
      } else if (disabled === false && target.disabled_at !== null) {
        await db.updateTable('users').set({ disabled_at: null }).where('id', '=', target.id).execute();
        // Their links answer again on every instance.
        await context.linkCache.forgetAll();
        await recordAudit(db, me, 'user.enable', target.email);
      }
      if (role !== undefined && role !== target.role) {
        if (role === 'user') await keepsAnAdmin(target);
        await db.updateTable('users').set({ role }).where('id', '=', target.id).execute();
        await recordAudit(db, me, 'user.role', target.email, role);
      }
      return { user: adminUserOf(await found(target.id)) };
    },
  );

  routes.delete('/api/admin/users/:id', { schema: { params: idParams } }, async (request, reply) => {
    const me = signedInUser(request);
    const target = await found(request.params.id);
    if (target.id === me.id) throw conflict(m.notYourself);
    await keepsAnAdmin(target);
    await deleteUserAccount(context, target.id, request.log);
    await recordAudit(db, me, 'user.delete', target.email);
    return reply.status(204).send();
  });
}
