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
import { ADMIN_PAGE_SIZE, type AdminUserRow, findAdminUser, searchUsers, setRole } from './admin-users.queries';
import { deleteUserAccount } from './delete-user';
import { endUserAccess } from './end-user-access';
import { keepAnAdmin, lockAdmins } from './last-admin';

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
      const { id } = request.params;
      const { disabled, role, reason } = request.body;
      // One transaction holding the admins' lock: the check that an admin remains and the write
      // that could remove one cannot be split by another admin's change (server/admin/last-admin.ts).
      const done = await db.transaction().execute(async (trx) => {
        await lockAdmins(trx);
        const target = await trx.selectFrom('users').select(['id', 'email', 'role', 'disabled_at']).where('id', '=', id).executeTakeFirst();
        if (!target) throw new AppError('not_found', m.userNotFound);
        const changes = { disabled: false, enabled: false };
        if (disabled === true && target.disabled_at === null) {
          if (target.id === me.id) throw conflict(m.notYourself);
          await keepAnAdmin(trx, target.id);
          await trx.updateTable('users').set({ disabled_at: Date.now() }).where('id', '=', target.id).execute();
          await recordAudit(trx, me, 'user.disable', target.email, reason || null);
          changes.disabled = true;
        } else if (disabled === false && target.disabled_at !== null) {
          await trx.updateTable('users').set({ disabled_at: null }).where('id', '=', target.id).execute();
          await recordAudit(trx, me, 'user.enable', target.email);
          changes.enabled = true;
        }
        if (role !== undefined && role !== target.role) {
          if (role === 'user') await keepAnAdmin(trx, target.id);
          await setRole(trx, target, role);
          await recordAudit(trx, me, 'user.role', target.email, role);
        }
        return changes;
      });
      // After the commit: sessions, tokens and cached links go (or, enabled, their links answer again).
      if (done.disabled) await endUserAccess(context, id);
      if (done.enabled) await context.linkCache.forgetAll();
      return { user: adminUserOf(await found(id)) };
    },
  );

  routes.delete('/api/admin/users/:id', { schema: { params: idParams } }, async (request, reply) => {
    const me = signedInUser(request);
    const target = await found(request.params.id);
    if (target.id === me.id) throw conflict(m.notYourself);
    // deleteAccount refuses, under the admins' lock, to delete the last active admin.
    await deleteUserAccount(context, target.id, request.log);
    await recordAudit(db, me, 'user.delete', target.email);
    return reply.status(204).send();
  });
}
