import { TOKENS_PER_USER, tokenMessages } from '@common/tokens/token-messages';
import { createdTokenSchema, createTokenSchema, revokedTokensSchema, tokenListSchema } from '@common/tokens/token-schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { requireUser, signedInUser } from '../auth/require-user';
import { AppError } from '../http/app-error';
import { newTokenSecret } from './token-secret';
import { countUserTokens, deleteAllUserTokens, deleteUserToken, insertToken, listUserTokens, tokenRowToApi } from './tokens.queries';

const idParams = z.object({ id: z.string().meta({ examples: ['7'] }) });

function tokenIdOf(raw: string): number {
  const id = /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw new AppError('not_found', tokenMessages.notFound);
  return id;
}

/** The signed-in user's personal API tokens: create (the secret shown once), list, revoke one or all. Sessions only. */
export async function tokensRoutes(app: FastifyInstance, { database, tokenCache }: AppContext) {
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.addHook('preHandler', requireUser);

  routes.get('/api/tokens', { schema: { response: { 200: tokenListSchema } } }, async (request) => {
    const rows = await listUserTokens(db, signedInUser(request).id);
    return { tokens: rows.map(tokenRowToApi) };
  });

  routes.post(
    '/api/tokens',
    { schema: { body: createTokenSchema, response: { 201: createdTokenSchema } } },
    async (request, reply) => {
      const userId = signedInUser(request).id;
      if ((await countUserTokens(db, userId)) >= TOKENS_PER_USER) throw new AppError('conflict', tokenMessages.tooMany);
      const { secret, prefix, hash } = newTokenSecret();
      const { name, scope, expiresAt } = request.body;
      const row = await insertToken(db, { userId, name, scope, prefix, hash, expiresAt: expiresAt ? Date.parse(expiresAt) : null });
      return reply.status(201).send({ token: tokenRowToApi(row), secret });
    },
  );

  routes.delete(
    '/api/tokens/:id',
    { schema: { params: idParams, response: { 204: z.null().meta({ description: 'Token revocado' }) } } },
    async (request, reply) => {
      const hash = await deleteUserToken(db, signedInUser(request).id, tokenIdOf(request.params.id));
      if (!hash) throw new AppError('not_found', tokenMessages.notFound);
      // Stops now, here and on every other instance, not when a cache entry ages out.
      await tokenCache.forget([hash]);
      return reply.status(204).send(null);
    },
  );

  // 'Revocar todos los tokens' (the account page): every token of the account, at once, everywhere.
  routes.delete('/api/tokens', { schema: { response: { 200: revokedTokensSchema } } }, async (request) => {
    const userId = signedInUser(request).id;
    const revoked = await deleteAllUserTokens(db, userId);
    await tokenCache.forgetUser(userId);
    return { revoked, message: revoked === 0 ? tokenMessages.noneToRevoke : tokenMessages.allRevoked };
  });
}
