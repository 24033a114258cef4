import { accountMessages as a } from '@common/account/account-messages';
import { recoveryCodesResponseSchema, totpCodeSchema, totpDisableSchema, totpSetupResponseSchema } from '@common/account/account-schemas';
import { userResponseSchema } from '@common/auth/auth-schemas';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { apiUser, sessionUserOfRow } from '../auth/api-user';
import { requireUser, signedInUser } from '../auth/require-user';
import { startSession } from '../auth/sessions';
import { refuseWithoutPasswordLogin } from '../auth/oidc/password-login';
import { AppError } from '../http/app-error';
import { findUser } from './account.queries';
import type { SecretGuard } from './password-check';
import { CHALLENGE_COOKIE, checkSecondFactor, codeStep, findChallenge, newTotpSecret, replaceRecoveryCodes, type SecondFactorResult, totpSetup } from './totp';
import { named } from '../http/plugin-name';

const refusals = { 'spent-code': a.codeSpent, 'used-recovery-code': a.recoveryCodeUsed, wrong: a.codeInvalid, ok: a.codeInvalid } as const;
const wrongCode = (result: SecondFactorResult = 'wrong') => new AppError('validation', refusals[result], { code: [refusals[result]] });

export function clearChallengeCookie(reply: FastifyReply): void {
  reply.clearCookie(CHALLENGE_COOKIE, { path: '/api/auth' });
}

/** Setting up, confirming and turning off two-factor sign-in, and the sign-in's second step. */
export async function totpRoutes(app: FastifyInstance, { database, config, storage }: AppContext, guard: SecretGuard) {
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // The second step of a login that answered { totpRequired: true }: no session yet, the challenge cookie.
  routes.post('/api/auth/totp', { schema: { body: totpCodeSchema, response: { 200: userResponseSchema } }, onRequest: refuseWithoutPasswordLogin(config) }, async (request, reply) => {
    const token = request.cookies[CHALLENGE_COOKIE];
    const challenge = token ? await findChallenge(db, token) : undefined;
    if (!challenge) {
      clearChallengeCookie(reply);
      throw new AppError('unauthorized', a.totpChallengeExpired);
    }
    let result: SecondFactorResult = 'wrong';
    const right = await guard.code(request, reply, challenge.email, async () => (result = await checkSecondFactor(db, challenge.userId, request.body.code)) === 'ok');
    if (!right) throw wrongCode(result);
    await db.deleteFrom('totp_challenges').where('token_hash', '=', challenge.token_hash).execute();
    clearChallengeCookie(reply);
    await startSession(db, config, request, reply, challenge.userId);
    const row = await findUser(db, challenge.userId);
    if (!row) throw new AppError('unauthorized', a.totpChallengeExpired);
    return { user: apiUser(storage, sessionUserOfRow(row)) };
  });

  await app.register(named('totpScope', async (scope) => {
    const account = scope.withTypeProvider<ZodTypeProvider>();
    account.addHook('preHandler', requireUser);

    // Starts (or starts over) a set-up: the secret is kept aside until a code confirms it.
    account.post('/api/account/totp', { schema: { response: { 200: totpSetupResponseSchema } } }, async (request) => {
      const user = signedInUser(request);
      if (user.totp) throw new AppError('conflict', a.totpAlreadyOn);
      const secret = newTotpSecret();
      await db.updateTable('users').set({ totp_pending_secret: secret }).where('id', '=', user.id).execute();
      return totpSetup(secret, user.email);
    });

    account.post(
      '/api/account/totp/confirm',
      { schema: { body: totpCodeSchema, response: { 200: recoveryCodesResponseSchema } } },
      async (request, reply) => {
        const user = signedInUser(request);
        if (user.totp) throw new AppError('conflict', a.totpAlreadyOn);
        const row = await findUser(db, user.id);
        const pending = row?.totp_pending_secret;
        if (!pending) throw new AppError('conflict', a.totpNotStarted);
        const step = await (async () => {
          let found: number | undefined;
          const right = await guard.code(request, reply, user.email, async () => (found = codeStep(pending, request.body.code)) !== undefined);
          return right ? found : undefined;
        })();
        if (step === undefined) throw wrongCode();
        // Only the secret that was shown is turned on (a second set-up meanwhile wins).
        const turnedOn = await db
          .updateTable('users')
          .set({ totp_secret: pending, totp_pending_secret: null, totp_last_step: step })
          .where('id', '=', user.id)
          .where('totp_pending_secret', '=', pending)
          .where('totp_secret', 'is', null)
          .executeTakeFirst();
        if (Number(turnedOn.numUpdatedRows) === 0) throw new AppError('conflict', a.totpNotStarted);
        return { recoveryCodes: await replaceRecoveryCodes(db, user.id) };
      },
    );

    account.delete('/api/account/totp', { schema: { body: totpDisableSchema, response: { 204: z.null() } } }, async (request, reply) => {
      const user = signedInUser(request);
      if (!user.totp) throw new AppError('conflict', a.totpNotOn);
      await guard.password(request, reply, user.id, user.email, request.body.password, 'password');
      let result: SecondFactorResult = 'wrong';
      const right = await guard.code(request, reply, user.email, async () => (result = await checkSecondFactor(db, user.id, request.body.code)) === 'ok');
      if (!right) throw wrongCode(result);
      await db
        .updateTable('users')
        .set({ totp_secret: null, totp_pending_secret: null, totp_last_step: null })
        .where('id', '=', user.id)
        .execute();
      await db.deleteFrom('totp_recovery_codes').where('user_id', '=', user.id).execute();
      return reply.status(204).send(null);
    });
  }));
}
