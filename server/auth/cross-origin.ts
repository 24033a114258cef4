import { authMessages } from '@common/auth/auth-messages';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../http/app-error';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Browsers send Origin with every cross-site POST; a page elsewhere must not act with the user's
 * cookie. Calls without Origin (curl, scripts) carry no ambient cookie risk and pass; SameSite=Lax
 * covers the rest.
 */
export function refuseCrossOrigin(config: Config): onRequestHookHandler {
  const publicOrigin = new URL(config.publicBaseUrl).origin;
  const ownOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
  // Synchronous (no promise per request): it runs on every request, redirects included.
  return (request, _reply, done) => {
    if (!STATE_CHANGING.has(request.method) || !request.url.startsWith('/api/')) return done();
    const origin = request.headers.origin;
    if (origin === undefined || origin === publicOrigin || origin === ownOrigin(request)) return done();
    done(new AppError('forbidden', authMessages.crossOrigin));
  };
}
