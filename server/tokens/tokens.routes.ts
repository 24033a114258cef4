import { TOKENS_PER_USER, tokenMessages } from '@common/tokens/token-messages';
import { createdTokenSchema, createTokenSchema, revokedTokensSchema, tokenListSchema } from '@common/tokens/token-schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { requireUser, signedInUser } from '../auth/require-user';
import { AppError } from '../http/app-error';
import { workspaceFor } from '../workspaces/workspace-access';
import { newTokenSecret } from './token-secret';
import { countUserTokens, deleteAllUserTokens, deleteWorkspaceToken, insertToken, listWorkspaceTokens, tokenRowToApi } from './tokens.queries';

const idParams = z.object({ id: z.string().meta({ examples: ['7'] }) });

function tokenIdOf(raw: string): number {
  const id = /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw new AppError('not_found', tokenMessages.notFound);
  return id;
}

/**
 * API tokens of a workspace (the one ?workspace= names, else the caller's personal one): create
 * (the secret shown once), list, revoke one; and revoke all of one's own. Sessions only.
 *
 * Creating, listing and revoking need 'manage' there: in one's personal workspace its owner has it,
 * so these are one's own tokens, as before; in a team workspace only its admins and owners have it,
 * and they see and may revoke every member's token there (each listed with who made it), since a
 * token acts in the workspace with its creator's role.
 */
export async function tokensRoutes(app: FastifyInstance, { database, tokenCache }: AppContext) {
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.addHook('preHandler', requireUser);

  routes.get('/api/tokens', { schema: { response: { 200: tokenListSchema } } }, async (request) => {
    const workspace = await workspaceFor(request, db, 'manage');
    const rows = await listWorkspaceTokens(db, workspace.id);
    return { tokens: rows.map((row) => tokenRowToApi(row, { id: Number(row.user_id), name: row.creator_name })) };
  });

  routes.post(
    '/api/tokens',
    { schema: { body: createTokenSchema, response: { 201: createdTokenSchema } } },
    async (request, reply) => {
      const workspace = await workspaceFor(request, db, 'manage');
      const user = signedInUser(request);
      // TOKENS_PER_USER counts the account's tokens in every workspace.
      if ((await countUserTokens(db, user.id)) >= TOKENS_PER_USER) throw new AppError('conflict', tokenMessages.tooMany);
      const { secret, prefix, hash } = newTokenSecret();
      const { name, scope, expiresAt } = request.body;
      const row = await insertToken(db, {
        userId: user.id,
        workspaceId: workspace.id,
        name,
        scope,
        prefix,
        hash,
        expiresAt: expiresAt ? Date.parse(expiresAt) : null,
      });
      return reply.status(201).send({ token: tokenRowToApi(row, { id: user.id, name: user.name }), secret });
    },
  );

  routes.delete(
    '/api/tokens/:id',
    { schema: { params: idParams, response: { 204: z.null().meta({ description: 'Token revocado' }) } } },
    async (request, reply) => {
      const workspace = await workspaceFor(request, db, 'manage');
      const hash = await deleteWorkspaceToken(db, workspace.id, tokenIdOf(request.params.id));
      if (!hash) throw new AppError('not_found', tokenMessages.notFound);
      // Stops now, here and on every other instance, not when a cache entry ages out.
      await tokenCache.forget([hash]);
      return reply.status(204).send(null);
    },
  );

  // 'Revocar todos los tokens' (the account page): every token the account made, in every
  // workspace, at once, everywhere. A safety measure of the account, so ?workspace= plays no part.
  routes.delete('/api/tokens', { schema: { response: { 200: revokedTokensSchema } } }, async (request) => {
    const userId = signedInUser(request).id;
    const revoked = await deleteAllUserTokens(db, userId);
    await tokenCache.forgetUser(userId);
    return { revoked, message: revoked === 0 ? tokenMessages.noneToRevoke : tokenMessages.allRevoked };
  });
}
