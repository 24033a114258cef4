import { accountMessages as a } from '@common/account/account-messages';
import {
  accountMessageResponseSchema,
  emailVerificationConfirmSchema,
  emailVerificationStatusSchema,
} from '@common/account/account-schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { promoteAdminEmails } from '../admin/admin-emails';
import type { AppContext } from '../app-context';
import { authRateLimits } from '../auth/rate-limits';
import { requireUser, signedInUser } from '../auth/require-user';
import { z } from 'zod';
import { isUniqueViolation } from '../db/dialect';
import { AppError } from '../http/app-error';
import type { Mailer } from '../mail/mailer';
import { cancelEmailChange, pendingEmailOf, resendEmailChange } from './email-change';
import { confirmEmailVerification, sendVerificationMail, VERIFY_RESEND_MS, verificationLinkOut } from './email-verification';

/**
 * 'Verificar mi email' on /cuenta: the state, the mail with the link, a change of address waiting
 * for its link ('Reenviar', 'Cancelar'), and the link's confirmation (public: the link may be
 * opened in a browser without the session). A listed ADMIN_EMAILS address is made admin as soon as
 * it is verified.
 */
export async function emailVerificationRoutes(app: FastifyInstance, context: AppContext, mailer: Mailer | undefined) {
  const { database, config } = context;
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const limits = authRateLimits(context, 'email-verification');

  routes.get(
    '/api/account/email/verification',
    { schema: { response: { 200: emailVerificationStatusSchema } }, preHandler: requireUser },
    async (request) => {
      const user = signedInUser(request);
      const row = await db.selectFrom('users').select('email_verified_at').where('id', '=', user.id).executeTakeFirst();
      return {
        verified: row?.email_verified_at != null,
        available: mailer !== undefined,
        linkSent: await verificationLinkOut(db, user.id, user.email),
        pendingEmail: await pendingEmailOf(db, user.id),
      };
    },
  );

  routes.post(
    '/api/account/email/verification',
    { schema: { response: { 202: accountMessageResponseSchema } }, preHandler: requireUser },
    async (request, reply) => {
      if (!mailer) throw new AppError('not_found', a.verifyUnavailable);
      const user = signedInUser(request);
      let result;
      try {
        result = await sendVerificationMail(db, config, mailer, user.id);
      } catch (error) {
        // The SMTP server refused or is away: said in Spanish, the details only in the log.
        request.log.error({ err: error }, 'could not send an e-mail verification');
        throw new AppError('busy', a.verifySendFailed, undefined, 60);
      }
      if (result === 'verified') throw new AppError('conflict', a.verifyAlready);
      if (result === 'wait') throw new AppError('rate_limited', a.verifyWait, undefined, VERIFY_RESEND_MS / 1000);
      return reply.status(202).send({
        message: `Te hemos enviado un enlace a ${user.email}. Ábrelo para verificar tu email (revisa también la carpeta de spam).`,
      });
    },
  );

  routes.post(
    '/api/account/email/pending/resend',
    { schema: { response: { 202: accountMessageResponseSchema } }, preHandler: requireUser },
    async (request, reply) => {
      if (!mailer) throw new AppError('not_found', a.emailChangeNone);
      let sent;
      try {
        sent = await resendEmailChange(db, config, mailer, signedInUser(request));
      } catch (error) {
        request.log.error({ err: error }, 'could not send an e-mail change confirmation');
        throw new AppError('busy', a.verifySendFailed, undefined, 60);
      }
      if (!sent) throw new AppError('not_found', a.emailChangeNone);
      if (sent.result === 'wait') throw new AppError('rate_limited', a.emailChangeWait, undefined, VERIFY_RESEND_MS / 1000);
      return reply.status(202).send({
        message: `Te hemos enviado otro enlace a ${sent.email}. Tu email no cambiará hasta que lo abras (revisa también la carpeta de spam).`,
      });
    },
  );

  routes.delete(
    '/api/account/email/pending',
    { schema: { response: { 204: z.null().describe('Hecho') } }, preHandler: requireUser },
    async (request, reply) => {
      if (!(await cancelEmailChange(db, signedInUser(request).id))) throw new AppError('not_found', a.emailChangeNone);
      return reply.status(204).send(null);
    },
  );

  routes.post(
    '/api/auth/email-verification/confirm',
    { schema: { body: emailVerificationConfirmSchema, response: { 200: accountMessageResponseSchema } }, onRequest: limits.perIp },
    async (request) => {
      let verified;
      try {
        verified = await confirmEmailVerification(db, request.body.token);
      } catch (error) {
        // Another account took the new address at the same moment: the index decides.
        if (isUniqueViolation(error)) throw new AppError('conflict', a.emailChangeRace);
        throw error;
      }
      if (!verified) throw new AppError('validation', a.verifyTokenInvalid, { token: [a.verifyTokenInvalid] });
      const promoted = await promoteAdminEmails(db, config.adminEmails, verified.userId);
      const done = verified.changed ? `Email cambiado: tu cuenta ahora usa ${verified.email}, ya verificado.` : `Email verificado: ${verified.email}.`;
      return { message: promoted.length > 0 ? `${done} Tu cuenta ahora es de administrador.` : done };
    },
  );
}
