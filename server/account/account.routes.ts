import { registerMultipart } from '../http/multipart';
import { accountMessages as a } from '@common/account/account-messages';
import { changeEmailResponseSchema, changeEmailSchema, changePasswordSchema, deleteAccountSchema, updateNameSchema } from '@common/account/account-schemas';
import { authMessages as m, PROFILE_IMAGE_MAX_BYTES } from '@common/auth/auth-messages';
import { userResponseSchema } from '@common/auth/auth-schemas';
import { buckets } from '@common/constants';
import { workspaceMessages } from '@common/workspaces/workspace-messages';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { apiUser, sessionUserOfRow } from '../auth/api-user';
import { findUserByEmail } from '../auth/auth.queries';
import { loadCommonPasswords, newPasswordSchema } from '../auth/common-passwords';
import { hashPassword, hasPassword } from '../auth/passwords';
import { oidcMessages } from '@common/auth/oidc-messages';
import { bufferProfilePicture, storeProfilePicture } from '../auth/profile-picture';
import { requireUser, signedInUser } from '../auth/require-user';
import { endSession as endThisSession, requestTokenHash } from '../auth/sessions';
import { isUniqueViolation } from '../db/dialect';
import { AppError } from '../http/app-error';
import { endSessionsOf, updateUser } from './account.queries';
import { deleteAllUserTokens } from '../tokens/tokens.queries';
import { deleteAccount } from './delete-account';
import { requestEmailChange } from './email-change';
import { spendAddressLinks, VERIFY_RESEND_MS } from './email-verification';
import type { Mailer } from '../mail/mailer';
import { spendResetLinks } from './password-reset';
import type { SecretGuard } from './password-check';
import { named } from '../http/plugin-name';

const emailTaken = () => new AppError('conflict', m.emailTaken, { email: [m.emailTaken] });
const noContent = { 204: z.null().describe('Hecho') };

/** PUT /api/account/picture, in a scope of its own: with sign-up, the only routes that read multipart. */
async function pictureRoute(app: FastifyInstance, { database, storage }: AppContext) {
  await registerMultipart(app, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: PROFILE_IMAGE_MAX_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 1024 },
    onFile: bufferProfilePicture,
  });
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.addHook('preHandler', requireUser);
  const bodySchema = z
    .object({ profileImage: z.instanceof(Buffer, { error: m.profileImageRequired }) })
    .strict();

  routes.put('/api/account/picture', { schema: { body: bodySchema, response: { 200: userResponseSchema } } }, async (request) => {
    const user = signedInUser(request);
    // The same checks and naming as at sign-up (dp-{name}-{time}-{random}.{ext}).
    const key = await storeProfilePicture(storage, user.name, request.body.profileImage);
    let row;
    try {
      row = await updateUser(database.db, user.id, { profile_image: key });
    } catch (error) {
      await storage.remove(buckets.profilePictures, key).catch(() => {});
      throw error;
    }
    // The old picture is only tidied up: the orphan sweep takes it if this fails.
    // An account the provider made had no picture (the initials avatar).
    if (user.profileImageKey) await storage.remove(buckets.profilePictures, user.profileImageKey).catch((error: unknown) => {
      request.log.warn({ err: error, key: user.profileImageKey }, 'could not remove a replaced profile picture');
    });
    return { user: apiUser(storage, sessionUserOfRow(row)) };
  });
}

/** The signed-in user's own account: name, picture, e-mail, password, and leaving. */
export async function accountRoutes(app: FastifyInstance, context: AppContext, guard: SecretGuard, mailer: Mailer | undefined) {
  const { database, storage, tokenCache, config } = context;
  const { db } = database;
  await app.register(named('pictureRoute', (scope) => pictureRoute(scope, context)));
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.addHook('preHandler', requireUser);

  routes.patch('/api/account', { schema: { body: updateNameSchema, response: { 200: userResponseSchema } } }, async (request) => {
    const row = await updateUser(db, signedInUser(request).id, { name: request.body.name });
    return { user: apiUser(storage, sessionUserOfRow(row)) };
  });

  routes.post(
    '/api/account/email',
    { schema: { body: changeEmailSchema, response: { 200: changeEmailResponseSchema, 202: changeEmailResponseSchema } } },
    async (request, reply) => {
      const user = signedInUser(request);
      const { email, password } = request.body;
      await guard.password(request, reply, user.id, user.email, password, 'password');
      const holder = await findUserByEmail(db, email);
      if (holder && holder.id !== user.id) throw emailTaken();
      const changed = email.toLowerCase() !== user.email.toLowerCase();
      if (changed && mailer) {
        // The new address must be proved first (email-change.ts): nothing changes until its link is used.
        let result;
        try {
          result = await requestEmailChange(db, config, mailer, user, email, request.log);
        } catch (error) {
          request.log.error({ err: error }, 'could not send an e-mail change confirmation');
          throw new AppError('busy', a.verifySendFailed, undefined, 60);
        }
        if (result === 'wait') throw new AppError('rate_limited', a.emailChangeWait, undefined, VERIFY_RESEND_MS / 1000);
        const pendingEmail = email.toLowerCase();
        return reply.status(202).send({
          user: apiUser(storage, user),
          pendingEmail,
          message: `Te hemos enviado un enlace a ${pendingEmail}. Tu email no cambiará hasta que lo abras (revisa también la carpeta de spam).`,
        });
      }
      try {
        // Without mail nothing can be proved: the address changes at once, unverified (nor does it
        // grant ADMIN_EMAILS anything), and no link mailed to the old address outlives the change.
        const row = await db.transaction().execute(async (trx) => {
          const updated = await updateUser(trx, user.id, changed ? { email, email_verified_at: null } : { email });
          await spendResetLinks(trx, user.id);
          if (changed) await spendAddressLinks(trx, user.id);
          return updated;
        });
        return { user: apiUser(storage, sessionUserOfRow(row)) };
      } catch (error) {
        // Two accounts taking one address at the same moment: the index decides.
        if (isUniqueViolation(error)) throw emailTaken();
        throw error;
      }
    },
  );

  routes.post(
    '/api/account/password',
    {
      schema: { body: changePasswordSchema.extend({ newPassword: newPasswordSchema }), response: noContent },
      preValidation: loadCommonPasswords,
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const { currentPassword, newPassword } = request.body;
      // An account the provider made has none to change: a mailed reset link creates one.
      if (!(await accountHasPassword(db, user.id))) throw new AppError('conflict', oidcMessages.noPasswordToChange);
      await guard.password(request, reply, user.id, user.email, currentPassword, 'currentPassword');
      const passwordHash = await hashPassword(newPassword);
      await db.transaction().execute(async (trx) => {
        await updateUser(trx, user.id, { password_hash: passwordHash });
        // Whoever else holds a session (a stolen one, a forgotten laptop), an open reset link or an
        // API token (made by someone who got in) is out now.
        await endSessionsOf(trx, user.id, requestTokenHash(request));
        await spendResetLinks(trx, user.id);
        await deleteAllUserTokens(trx, user.id);
      });
      await tokenCache.forgetUser(user.id);
      return reply.status(204).send(null);
    },
  );

  routes.delete('/api/account', { schema: { body: deleteAccountSchema, response: noContent } }, async (request, reply) => {
    const user = signedInUser(request);
    if (await accountHasPassword(db, user.id)) {
      await guard.password(request, reply, user.id, user.email, request.body.password, 'password');
    } else if (request.body.password.trim().toLowerCase() !== user.email.toLowerCase()) {
      // An account the provider made confirms by typing its e-mail (it has no password to ask).
      throw new AppError('validation', oidcMessages.deleteEmailMismatch, { password: [oidcMessages.deleteEmailMismatch] });
    }
    // The last active admin cannot leave, nor the last owner of a team: refused (409) under their locks.
    await deleteAccount(context, user.id, {
      log: request.log,
      lastAdminMessage: a.lastAdminLeaving,
      lastOwnerMessage: workspaceMessages.lastOwnerOfTeams,
    });
    await endThisSession(db, request, reply);
    return reply.status(204).send(null);
  });
}

async function accountHasPassword(db: AppContext['database']['db'], userId: number): Promise<boolean> {
  return hasPassword(await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow());
}
