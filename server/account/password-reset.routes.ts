import { accountMessages as a } from '@common/account/account-messages';
import {
  passwordResetAvailabilitySchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
} from '@common/account/account-schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { loadCommonPasswords, newPasswordSchema } from '../auth/common-passwords';
import { authRateLimits } from '../auth/rate-limits';
import { SESSION_COOKIE } from '../auth/sessions';
import { refuseWithoutPasswordLogin } from '../auth/oidc/password-login';
import { AppError } from '../http/app-error';
import type { Mailer } from '../mail/mailer';
import { confirmReset, sendResetMail } from './password-reset';

export const resetRequestedMessage =
  'Si hay una cuenta con ese email, te hemos enviado un enlace para restablecer la contraseña. Revisa tu correo (y la carpeta de spam).';

/**
 * Password recovery. The request answers 202 before anything is looked up: the answer, and the
 * time it takes, are the same whether or not the address has an account (the lookup and the
 * e-mail happen after it, in the background).
 */
export async function passwordResetRoutes(app: FastifyInstance, context: AppContext, mailer: Mailer | undefined) {
  const { database, config, tokenCache } = context;
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const limits = authRateLimits(context, 'password-reset');

  routes.get('/api/auth/password-reset', { schema: { response: { 200: passwordResetAvailabilitySchema } } }, async () => ({
    available: mailer !== undefined && config.passwordLogin,
  }));

  routes.post(
    '/api/auth/password-reset',
    {
      schema: { body: passwordResetRequestSchema, response: { 202: z.object({ message: z.string() }) } },
      onRequest: [refuseWithoutPasswordLogin(config), limits.perIp],
      preHandler: limits.perEmailAndClient,
    },
    async (request, reply) => {
      if (!mailer) throw new AppError('not_found', a.resetUnavailable);
      const { email } = request.body;
      // Not even the lookup runs before the answer has gone (SQLite's queries run on this thread).
      setImmediate(() => {
        sendResetMail(db, config, mailer, email).catch((error: unknown) => {
          request.log.error({ err: error }, 'could not send a password-reset e-mail');
        });
      });
      return reply.status(202).send({ message: resetRequestedMessage });
    },
  );

  routes.post(
    '/api/auth/password-reset/confirm',
    {
      schema: { body: passwordResetConfirmSchema.extend({ password: newPasswordSchema }), response: { 204: z.null() } },
      onRequest: limits.perIp,
      preValidation: loadCommonPasswords,
    },
    async (request, reply) => {
      const { token, password } = request.body;
      const userId = await confirmReset(db, token, password);
      if (userId === undefined) throw new AppError('validation', a.resetTokenInvalid, { token: [a.resetTokenInvalid] });
      // The account's API tokens are gone: they stop now on every instance, not when a cache entry ages out.
      await tokenCache.forgetUser(userId);
      // Every session ended, this browser's included: it signs in with the new password.
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.status(204).send(null);
    },
  );
}
