import { buckets } from '@common/constants';
import { workspaceMessages as m } from '@common/workspaces/workspace-messages';
import { roleMay, roleMayAssign, type WorkspaceRole, workspaceRoles } from '@common/workspaces/workspace-roles';
import { type Member, memberListSchema, memberSchema, updateMemberSchema } from '@common/workspaces/workspace-schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { requireUser, signedInUser } from '../auth/require-user';
import type { Database } from '../db/database';
import { AppError } from '../http/app-error';
import type { ObjectStorage } from '../storage/storage';
import { recordActivity } from './activity';
import { type LockedMember, lockMembers, ownersAmong } from './member-lock';
import { workspaceFor } from './workspace-access';
import { type MemberRow, membersOf } from './workspaces.queries';
import { noContent, slugParams } from './route-params';

const memberParams = slugParams.extend({ userId: z.coerce.number().int().positive() });
const rank = (role: WorkspaceRole) => workspaceRoles.indexOf(role);
const forbidden = (message: string) => new AppError('forbidden', message);

export const memberOf = (storage: ObjectStorage, row: MemberRow): Member => ({
  user: { id: Number(row.user_id), name: row.name, email: row.email, profileImage: storage.publicUrl(buckets.profilePictures, row.profile_image) },
  role: row.role,
  joinedAt: new Date(Number(row.joined_at)).toISOString(),
});

interface Locked {
  me: LockedMember;
  target: LockedMember;
  owners: LockedMember[];
}

/**
 * The caller and the member acted on, read again under the member rows' lock (member-lock.ts):
 * the roles workspaceFor saw may have changed while the request waited for it.
 */
async function lockedPair(trx: Database, workspaceId: number, callerId: number, targetId: number, action: 'read' | 'manage'): Promise<Locked> {
  const members = await lockMembers(trx, [workspaceId]);
  const me = members.find((member) => member.userId === callerId);
  if (!me) throw new AppError('not_found', m.notFound);
  if (!roleMay(me.role, action)) throw forbidden(m.forbiddenRole);
  const target = members.find((member) => member.userId === targetId);
  if (!target) throw new AppError('not_found', m.memberNotFound);
  return { me, target, owners: ownersAmong(members) };
}

const userName = async (db: Database, userId: number) =>
  (await db.selectFrom('users').select(['name', 'email']).where('id', '=', userId).executeTakeFirstOrThrow());

/** A workspace's members: the list, a role changed, a member removed or leaving. */
export async function membersRoutes(app: FastifyInstance, context: AppContext) {
  const { database, storage, tokenCache } = context;
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.addHook('preHandler', requireUser);

  routes.get('/api/workspaces/:slug/members', { schema: { params: slugParams, response: { 200: memberListSchema } } }, async (request) => {
    const workspace = await workspaceFor(request, db, 'read', request.params.slug);
    return { members: (await membersOf(db, workspace.id)).map((row) => memberOf(storage, row)) };
  });

  routes.patch(
    '/api/workspaces/:slug/members/:userId',
    { schema: { params: memberParams, body: updateMemberSchema, response: { 200: z.object({ member: memberSchema }) } } },
    async (request) => {
      const user = signedInUser(request);
      const { userId } = request.params;
      const { role } = request.body;
      const workspace = await workspaceFor(request, db, 'manage', request.params.slug);
      await db.transaction().execute(async (trx) => {
        const { me, target, owners } = await lockedPair(trx, workspace.id, user.id, userId, 'manage');
        // Nobody raises themselves; stepping down is allowed (an owner handing over, once another owns).
        if (target.userId === me.userId && rank(role) > rank(me.role)) throw forbidden(m.ownRole);
        if (!roleMayAssign(me.role, target.role) || !roleMayAssign(me.role, role)) throw forbidden(m.ownerOnlyByOwner);
        if (role === target.role) return;
        if (target.role === 'owner' && owners.length <= 1) throw new AppError('conflict', m.lastOwner);
        await trx.updateTable('workspace_members').set({ role }).where('workspace_id', '=', workspace.id).where('user_id', '=', userId).execute();
        const { name } = await userName(trx, userId);
        await recordActivity(trx, { workspaceId: workspace.id, actor: user, action: 'member.role_changed', target: name, detail: `${target.role} → ${role}` });
      });
      const row = (await membersOf(db, workspace.id)).find((member) => Number(member.user_id) === userId)!;
      return { member: memberOf(storage, row) };
    },
  );

  routes.delete(
    '/api/workspaces/:slug/members/:userId',
    { schema: { params: memberParams, response: noContent } },
    async (request, reply) => {
      const user = signedInUser(request);
      const { userId } = request.params;
      const leaving = userId === user.id;
      // Leaving needs only to be a member; removing someone else, to manage members.
      const workspace = await workspaceFor(request, db, leaving ? 'read' : 'manage', request.params.slug);
      if (leaving && workspace.personal) throw new AppError('conflict', m.personalNotDeletable);
      const revoked = await db.transaction().execute(async (trx) => {
        const { me, target, owners } = await lockedPair(trx, workspace.id, user.id, userId, leaving ? 'read' : 'manage');
        if (!leaving && target.role === 'owner' && me.role !== 'owner') throw forbidden(m.ownerOnlyByOwner);
        if (target.role === 'owner' && owners.length <= 1) throw new AppError('conflict', m.lastOwner);
        await trx.deleteFrom('workspace_members').where('workspace_id', '=', workspace.id).where('user_id', '=', userId).execute();
        // Their tokens acted here as them: they stop with the membership.
        const tokens = await trx
          .deleteFrom('api_tokens')
          .where('workspace_id', '=', workspace.id)
          .where('user_id', '=', userId)
          .returning('token_hash')
          .execute();
        const { name } = await userName(trx, userId);
        await recordActivity(trx, {
          workspaceId: workspace.id,
          actor: user,
          action: leaving ? 'member.left' : 'member.removed',
          target: name,
        });
        return tokens.map((token) => token.token_hash);
      });
      if (revoked.length > 0) await tokenCache.forget(revoked);
      return reply.status(204).send(null);
    },
  );
}
