import { accountOidcSchema, oidcMessages } from '@common/auth/oidc-messages';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { AppError } from '../../http/app-error';
import { hasPassword } from '../passwords';
import { requireUser, signedInUser } from '../require-user';

/** The account page's view of the provider: which one is linked, and unlinking it. */
export async function oidcAccountRoutes(app: FastifyInstance, { config, database }: AppContext) {
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.addHook('preHandler', requireUser);

  const linkOf = (userId: number) => db.selectFrom('oidc_identities').select(['id', 'issuer', 'created_at']).where('user_id', '=', userId).executeTakeFirst();

  routes.get('/api/account/oidc', { schema: { response: { 200: accountOidcSchema } } }, async (request) => {
    const user = signedInUser(request);
    const [link, row] = await Promise.all([linkOf(user.id), db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow()]);
    return {
      linked: link ? { label: config.oidc?.issuer === link.issuer ? config.oidc.label : new URL(link.issuer).hostname, since: new Date(Number(link.created_at)).toISOString() } : null,
      hasPassword: hasPassword(row),
    };
  });

  routes.delete('/api/account/oidc', { schema: { response: { 204: z.null() } } }, async (request, reply) => {
    const user = signedInUser(request);
    const row = await db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    if (!(await linkOf(user.id))) throw new AppError('not_found', oidcMessages.notLinked);
    // Without a password the account could not be entered again.
    if (!hasPassword(row)) throw new AppError('conflict', oidcMessages.unlinkNeedsPassword);
    await db.deleteFrom('oidc_identities').where('user_id', '=', user.id).execute();
    return reply.status(204).send(null);
  });
}
