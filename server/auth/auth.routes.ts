import { registerMultipart } from '../http/multipart';
import { adminMessages } from '@common/admin/admin-messages';
import { authMessages as m, PROFILE_IMAGE_MAX_BYTES } from '@common/auth/auth-messages';
import { loginResponseSchema } from '@common/account/account-schemas';
import { loginSchema, registerFieldsSchema, sessionResponseSchema, userResponseSchema } from '@common/auth/auth-schemas';
import { buckets } from '@common/constants';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { checkSignup } from '../admin/signup-policy';
import { isUniqueViolation } from '../db/dialect';
import { AppError } from '../http/app-error';
import { acceptInvite } from '../workspaces/invites';
import { apiUser, sessionUserOfRow } from './api-user';
import { findUserByEmail, insertUser } from './auth.queries';
import { createMemoryAttemptStore } from './attempt-store';
import { createRedisAttemptStore } from './redis-attempt-store';
import { loadCommonPasswords, newPasswordSchema } from './common-passwords';
import { createLoginGuard, type LoginGuard } from './login-guard';
import { hashPassword, verifyPassword } from './passwords';
import { bufferProfilePicture, storeProfilePicture } from './profile-picture';
import { authRateLimits } from './rate-limits';
import { sendVerificationMail } from '../account/email-verification';
import { createMailer, type Mailer } from '../mail/mailer';
import { CHALLENGE_COOKIE, CHALLENGE_LIFETIME_MS, createChallenge } from '../account/totp';
import { endSession, startSession } from './sessions';
import { refuseWithoutPasswordLogin } from './oidc/password-login';
import { providerLogoutUrl } from './oidc/oidc-logout';
import { named } from '../http/plugin-name';

// The form's fields plus the picture, which multipart hands over as bytes.
const registerBodySchema = registerFieldsSchema.extend({
  password: newPasswordSchema,
  profileImage: z.instanceof(Buffer, { error: m.profileImageRequired }).refine((bytes) => bytes.length > 0, {
    error: m.profileImageRequired,
  }),
  // The invitation's code, when sign-up is by invitation only.
  invite: z.string().trim().max(200).optional(),
  // A workspace invitation's secret (the /invitacion page's): the new account joins that workspace.
  workspaceInvite: z.string().trim().max(200).optional(),
}).strict(); // a field we do not know (role, id...) is refused, not ignored

const emailTaken = () => new AppError('conflict', m.emailTaken, { email: [m.emailTaken] });

/**
 * Sign-up, in a scope of its own: the only route that reads multipart (the picture). Everywhere
 * else a form body is refused with 415, so a page on another site cannot post a plain HTML form
 * to login or logout.
 */
async function registerRoute(app: FastifyInstance, context: AppContext, loginGuard: LoginGuard, mailer: Mailer | undefined) {
  const { database, config, storage } = context;
  const { db } = database;
  await registerMultipart(app, {
    attachFieldsToBody: 'keyValues',
    // One picture and three short fields; a 10,000-character name still reaches validation.
    limits: { fileSize: PROFILE_IMAGE_MAX_BYTES, files: 1, fields: 10, parts: 12, fieldSize: 64 * 1024 },
    onFile: bufferProfilePicture,
  });
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const registerLimits = authRateLimits(context, 'register');

  routes.post(
    '/api/auth/register',
    {
      schema: { body: registerBodySchema, response: { 201: userResponseSchema } },
      onRequest: [refuseWithoutPasswordLogin(config), registerLimits.perIp],
      preValidation: loadCommonPasswords,
      preHandler: registerLimits.perEmailAndClient,
    },
    async (request, reply) => {
      const { name, email, password, profileImage, invite, workspaceInvite } = request.body;
      // Closed (403) or by invitation: checked before anything is stored.
      const signup = await checkSignup(db, config, email, invite, workspaceInvite);
      if (await findUserByEmail(db, email)) throw emailTaken();
      const imageKey = await storeProfilePicture(storage, name, profileImage);
      let taken = false;
      try {
        await signup.take();
        taken = true;
        const passwordHash = await hashPassword(password);
        const row = await db.transaction().execute(async (trx) => {
          const user = await insertUser(trx, {
            name,
            email,
            password_hash: passwordHash,
            profile_image: imageKey,
            created_at: Date.now(),
            // No role from ADMIN_EMAILS here: an address grants admin once proved (admin/admin-emails.ts).
            disabled_at: null,
          });
          // Joined with the account or not at all: an invitation taken meanwhile undoes the sign-up.
          // When mail can prove the address, joining waits for it (the invitation page, once
          // confirmed): an invitation trusts no unconfirmed address (workspaces/invites.ts).
          if (workspaceInvite && !mailer) {
            await acceptInvite(trx, workspaceInvite, user, { confirmedOnly: false }).catch((error: unknown) => {
              throw error instanceof AppError ? new AppError('validation', error.message, { workspaceInvite: [error.message] }) : error;
            });
          }
          return user;
        });
        await startSession(db, config, request, reply, row.id);
        await loginGuard.remember(request, reply, email);
        if (mailer) {
          // The link that proves the address; if it cannot go now, 'Reenviar' on /cuenta sends it.
          await sendVerificationMail(db, config, mailer, Number(row.id)).catch((error: unknown) => {
            request.log.error({ err: error }, 'could not send the sign-up e-mail verification');
          });
        }
        return reply.status(201).send({ user: apiUser(storage, sessionUserOfRow(row)) });
      } catch (error) {
        // No account, no picture, and the invitation still usable.
        await storage.remove(buckets.profilePictures, imageKey).catch(() => {});
        if (taken) await signup.giveBack().catch(() => {});
        // Two sign-ups with one e-mail at the same moment: the index decides.
        if (isUniqueViolation(error)) throw emailTaken();
        throw error;
      }
    },
  );
}

export async function authRoutes(app: FastifyInstance, context: AppContext) {
  const { database, config, storage } = context;
  const { db } = database;
  // One guard for both: a sign-up makes its client known to the new account.
  // Attempts counted in Redis when REDIS_URL is set, so every instance sees them all.
  const shared = config.redisUrl ? createRedisAttemptStore(config.redisUrl, app.log) : undefined;
  if (shared) app.addHook('onClose', async () => shared.close());
  const loginGuard = createLoginGuard(config, shared ?? createMemoryAttemptStore());
  const mailer = createMailer(config);
  if (mailer) app.addHook('onClose', async () => mailer.close());
  await app.register(named('registerRoute', (scope) => registerRoute(scope, context, loginGuard, mailer)));
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const loginLimits = authRateLimits(context, 'login');

  routes.post(
    '/api/auth/login',
    {
      schema: { body: loginSchema.strict(), response: { 200: loginResponseSchema } },
      onRequest: [refuseWithoutPasswordLogin(config), loginLimits.perIp],
    },
    async (request, reply) => {
      const { email, password } = request.body;
      // Refused with 429 when this client, or any client unknown to the account, must wait.
      const row = await loginGuard.attempt(request, reply, email, async () => {
        const found = await findUserByEmail(db, email);
        // The same work whether the e-mail or the password was wrong.
        return (await verifyPassword(found?.password_hash, password)) ? found : undefined;
      });
      if (!row) throw new AppError('unauthorized', m.wrongCredentials);
      // Told only to whoever knows the password.
      if (row.disabled_at !== null) throw new AppError('forbidden', adminMessages.accountDisabled);
      if (row.totp_secret) {
        // Two-factor: the code is asked next (POST /api/auth/totp), with this challenge's cookie.
        const challenge = await createChallenge(db, row.id);
        reply.setCookie(CHALLENGE_COOKIE, challenge, {
          path: '/api/auth',
          httpOnly: true,
          sameSite: 'lax',
          secure: config.publicBaseUrl.startsWith('https:'),
          maxAge: CHALLENGE_LIFETIME_MS / 1000,
        });
        return { totpRequired: true as const };
      }
      await startSession(db, config, request, reply, row.id);
      return { user: apiUser(storage, sessionUserOfRow(row)) };
    },
  );

  routes.post('/api/auth/logout', async (request, reply) => {
    // A session the company's provider opened ends there too, when it offers that (RP-initiated logout).
    const endSessionUrl = await providerLogoutUrl(context, request);
    await endSession(db, request, reply);
    if (endSessionUrl) return reply.status(200).send({ endSessionUrl });
    return reply.status(204).send();
  });

  // Signed out is an answer, not an error: a page asking who is there logs nothing in the console.
  routes.get('/api/auth/session', { schema: { response: { 200: sessionResponseSchema } } }, async (request, reply) => {
    const user = await app.sessionUserOf(request, reply);
    return { user: user ? apiUser(storage, user) : null };
  });
}
