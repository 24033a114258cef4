import fastifyRateLimit from '@fastify/rate-limit';
import { errorMessages } from '@common/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../http/app-error';
import { clientKey } from '../http/client-key';

const IP_WINDOW_MS = 60 * 1000;
const EMAIL_WINDOW_MS = 15 * 60 * 1000;

type Hook = (request: FastifyRequest) => Promise<void>;
const noLimit: Hook = async () => {};

function emailOf(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

function limiter(app: FastifyInstance, max: number, timeWindow: number, key: (request: FastifyRequest) => string): Hook {
  if (max <= 0) return noLimit;
  // createRateLimit rather than rateLimit: the latter runs once per request, and we stack two.
  const check = app.createRateLimit({ max, timeWindow, keyGenerator: key });
  return async (request) => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new AppError('rate_limited', errorMessages.rateLimited, undefined, Math.max(1, result.ttlInSeconds));
    }
  };
}

/**
 * Limits on mass sign-ups and login attempts per client (onRequest, before any work), a client
 * being an IPv4 address or an IPv6 /64 (clientKey); and on sign-ups per e-mail and client
 * (preHandler, once the body is read). Wrong passwords per account are the login guard's
 * (login-guard.ts). In memory per instance; 0 in the config turns a limit off.
 */
export async function authRateLimits(app: FastifyInstance, config: Config, action: 'login' | 'register' | 'password-reset') {
  if (!app.hasDecorator('createRateLimit')) await app.register(fastifyRateLimit, { global: false });
  return {
    perIp: limiter(app, config.authRateLimitPerIp, IP_WINDOW_MS, (request) => `${action}:ip:${clientKey(request.ip)}`),
    perEmailAndClient: limiter(
      app,
      config.authRateLimitPerEmail,
      EMAIL_WINDOW_MS,
      (request) => `${action}:email:${emailOf(request)}:client:${clientKey(request.ip)}`,
    ),
  };
}
