import { errorMessages } from '@common/messages';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context';
import { AppError } from '../http/app-error';
import { clientKey } from '../http/client-key';
import type { SharedLimiter } from '../rate-limits/shared-limiter';

const IP_WINDOW_S = 60;
const EMAIL_WINDOW_S = 15 * 60;

type Hook = (request: FastifyRequest) => Promise<void>;

function emailOf(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

function hook(limiter: SharedLimiter, key: (request: FastifyRequest) => string): Hook {
  return async (request) => {
    if (limiter.limit <= 0) return;
    const result = await limiter.consume(key(request));
    if (!result.allowed) throw new AppError('rate_limited', errorMessages.rateLimited, undefined, result.resetSeconds);
  };
}

/**
 * Limits on mass sign-ups and login attempts per client (onRequest, before any work), a client
 * being an IPv4 address or an IPv6 /64 (clientKey); and on sign-ups per e-mail and client
 * (preHandler, once the body is read). Wrong passwords per account are the login guard's
 * (login-guard.ts). Shared by every instance through Redis when REDIS_URL is set (the limiter
 * factory), per instance otherwise; 0 in the config turns a limit off.
 */
export function authRateLimits({ config, limiters }: Pick<AppContext, 'config' | 'limiters'>, action: 'login' | 'register' | 'password-reset' | 'email-verification') {
  const perIp = limiters.create({ name: `${action}-ip`, points: config.authRateLimitPerIp, durationSeconds: IP_WINDOW_S });
  const perEmail = limiters.create({ name: `${action}-email`, points: config.authRateLimitPerEmail, durationSeconds: EMAIL_WINDOW_S });
  return {
    perIp: hook(perIp, (request) => clientKey(request.ip)),
    perEmailAndClient: hook(perEmail, (request) => `${emailOf(request)}:${clientKey(request.ip)}`),
  };
}
