import { workspaceMessages as m } from '@common/workspaces/workspace-messages';
import { roleMay } from '@common/workspaces/workspace-roles';
import {
  createInviteSchema,
  createdInviteResponseSchema,
  inviteListSchema,
  invitePreviewSchema,
  workspaceResponseSchema,
} from '@common/workspaces/workspace-schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { findUserByEmail } from '../auth/auth.queries';
import { requireUser, signedInUser } from '../auth/require-user';
import { AppError } from '../http/app-error';
import type { Mailer } from '../mail/mailer';
import { workspaceInviteMail } from '../mail/workspace-invite-mail';
import { recordActivity } from './activity';
import { acceptInvite, insertInvite, inviteOf, inviteUrl, pendingInvites, previewInvite } from './invites';
import { noContent, slugParams } from './route-params';
import { workspaceFor } from './workspace-access';
import { workspaceOf } from './workspaces.queries';

const inviteParams = slugParams.extend({ id: z.coerce.number().int().positive() });
// A secret as the link carries it: base64url, nothing longer than a link would hold.
const tokenParams = z.object({ token: z.string().max(200) });

/** Invitations: made, listed and revoked by the workspace's admins; previewed and accepted by their addressee. */
export async function invitesRoutes(app: FastifyInstance, context: AppContext, mailer: Mailer | undefined) {
  const { database, config } = context;
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/workspaces/:slug/invites',
    {
      schema: { params: slugParams, body: createInviteSchema, response: { 201: createdInviteResponseSchema } },
      preHandler: requireUser,
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const { email, role } = request.body;
      const workspace = await workspaceFor(request, db, 'manage', request.params.slug);
      if (workspace.personal) throw new AppError('conflict', m.personalNoMembers);
      if (role === 'owner' && !roleMay(workspace.role, 'own')) throw new AppError('forbidden', m.ownerOnlyByOwner);
      const holder = await findUserByEmail(db, email);
      if (holder) {
        const member = await db
          .selectFrom('workspace_members')
          .select('user_id')
          .where('workspace_id', '=', workspace.id)
          .where('user_id', '=', holder.id)
          .executeTakeFirst();
        if (member) throw new AppError('conflict', m.alreadyMember, { email: [m.alreadyMember] });
      }
      if (await pendingInvites(db, workspace.id).where('email', '=', email).executeTakeFirst()) {
        throw new AppError('conflict', m.invitePending, { email: [m.invitePending] });
      }
      const { row, secret } = await db.transaction().execute(async (trx) => {
        const made = await insertInvite(trx, { workspaceId: workspace.id, email, role, createdBy: user.id });
        await recordActivity(trx, { workspaceId: workspace.id, actor: user, action: 'invite.created', target: email, detail: role });
        return made;
      });
      const url = inviteUrl(config, secret);
      let mailed = false;
      if (mailer) {
        try {
          await mailer.send(workspaceInviteMail({ to: email, workspaceName: workspace.name, inviterName: user.name, role, url }));
          mailed = true;
        } catch (error) {
          // The invitation stands: the answer carries its link to copy; the details only in the log.
          request.log.error({ err: error }, 'could not send a workspace invitation');
        }
      }
      return reply.status(201).send({ invite: inviteOf(row, url), mailed });
    },
  );

  routes.get(
    '/api/workspaces/:slug/invites',
    { schema: { params: slugParams, response: { 200: inviteListSchema } }, preHandler: requireUser },
    async (request) => {
      const workspace = await workspaceFor(request, db, 'manage', request.params.slug);
      const rows = await pendingInvites(db, workspace.id).orderBy('id', 'desc').execute();
      return { invites: rows.map((row) => inviteOf(row)) };
    },
  );

  routes.delete(
    '/api/workspaces/:slug/invites/:id',
    { schema: { params: inviteParams, response: noContent }, preHandler: requireUser },
    async (request, reply) => {
      const user = signedInUser(request);
      const workspace = await workspaceFor(request, db, 'manage', request.params.slug);
      const invite = await pendingInvites(db, workspace.id).where('id', '=', request.params.id).executeTakeFirst();
      if (!invite) throw new AppError('not_found', m.inviteNotFound);
      if (invite.role === 'owner' && !roleMay(workspace.role, 'own')) throw new AppError('forbidden', m.ownerOnlyByOwner);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('workspace_invites').set({ revoked_at: Date.now() }).where('id', '=', invite.id).where('accepted_at', 'is', null).execute();
        await recordActivity(trx, { workspaceId: workspace.id, actor: user, action: 'invite.revoked', target: invite.email, detail: invite.role });
      });
      return reply.status(204).send(null);
    },
  );

  // Public: the page an invitation's link opens shows what it is before its addressee signs in.
  routes.get('/api/invites/:token', { schema: { params: tokenParams, response: { 200: invitePreviewSchema } } }, async (request) =>
    previewInvite(db, request.params.token),
  );

  routes.post(
    '/api/invites/:token/accept',
    { schema: { params: tokenParams, response: { 200: workspaceResponseSchema } }, preHandler: requireUser },
    async (request) => {
      const user = signedInUser(request);
      const workspace = await db.transaction().execute((trx) => acceptInvite(trx, request.params.token, user, { confirmedOnly: mailer !== undefined }));
      return { workspace: workspaceOf(workspace) };
    },
  );
}
