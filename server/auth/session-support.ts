import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';
import { refuseCrossOrigin } from './cross-origin';
import { sessionUser } from './sessions';

/**
 * What every route may rely on: cookies, request.user, app.sessionUserOf, and the refusal of
 * state-changing API calls from other sites. Called on the root instance, before any routes.
 */
export async function registerSessionSupport(app: FastifyInstance, { database, config }: AppContext): Promise<void> {
  await app.register(fastifyCookie);
  app.decorateRequest('user', null);
  app.decorate('sessionUserOf', (request, reply) => sessionUser(database.db, config, request, reply));
  app.addHook('onRequest', refuseCrossOrigin(config));
}
