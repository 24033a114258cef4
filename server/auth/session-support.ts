import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';
import { sessionUser } from './sessions';

/**
 * What every API route may rely on: cookies, request.user and app.sessionUserOf. Called on the
 * API's scope, before its routes (the cross-origin refusal is app.ts's, on every request).
 */
export async function registerSessionSupport(app: FastifyInstance, { database, config }: AppContext): Promise<void> {
  await app.register(fastifyCookie);
  app.decorateRequest('user', null);
  // A bearer request is its token's user (set by bearer-auth.ts), whatever cookie it carries.
  app.decorate('sessionUserOf', async (request, reply) =>
    request.apiToken ? request.user : sessionUser(database.db, config, request, reply),
  );
}
