import { errorMessages } from '@common/messages';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/app-error';
import type { SessionUser } from './sessions';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user once requireUser has run; null on routes without it. */
    user: SessionUser | null;
  }
  interface FastifyInstance {
    /** Reads (and renews) the request's session; set up by registerSessionSupport. */
    sessionUserOf(request: FastifyRequest, reply: FastifyReply): Promise<SessionUser | null>;
  }
}

/**
 * preHandler for routes that need a signed-in user: sets request.user, or answers 401 with the
 * error envelope. Use as `{ preHandler: requireUser }` or `app.addHook('preHandler', requireUser)`.
 * A preHandler rather than onRequest: the API deadline starts at preHandler, and the session lookup
 * waits for the database.
 */
export async function requireUser(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const user = await request.server.sessionUserOf(request, reply);
  if (!user) {
    // A program learns it may authenticate with a personal API token (a browser ignores this).
    void reply.header('www-authenticate', 'Bearer realm="corto"');
    throw new AppError('unauthorized', errorMessages.unauthorized);
  }
  request.user = user;
}

/** request.user on a route behind requireUser, typed as present. */
export function signedInUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError('unauthorized', errorMessages.unauthorized);
  return request.user;
}
