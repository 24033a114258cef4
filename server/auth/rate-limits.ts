import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Config } from '../config';

const IP_WINDOW_MS = 60 * 1000;
const EMAIL_WINDOW_MS = 15 * 60 * 1000;

type Hook = preHandlerAsyncHookHandler;
const noLimit: Hook = async () => {};

function emailOf(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

/**
 * Limits on guessing passwords and mass sign-ups: per client IP (onRequest, before any work) and
 * per e-mail (preHandler, once the body is read), so neither many addresses from one machine nor
 * one address from many machines gets far. Over the limit: 429 with the error envelope, made by
 * the app's error handler. In memory per instance; 0 in the config turns a limit off.
 */
export async function authRateLimits(app: FastifyInstance, config: Config, action: 'login' | 'register') {
  if (!app.hasDecorator('rateLimit')) await app.register(fastifyRateLimit, { global: false });
  const perIp: Hook =
    config.authRateLimitPerIp > 0
      ? (app.rateLimit({
          max: config.authRateLimitPerIp,
          timeWindow: IP_WINDOW_MS,
          keyGenerator: (request) => `${action}:ip:${request.ip}`,
        }) as Hook)
      : noLimit;
  const perEmail: Hook =
    config.authRateLimitPerEmail > 0
      ? (app.rateLimit({
          max: config.authRateLimitPerEmail,
          timeWindow: EMAIL_WINDOW_MS,
          keyGenerator: (request) => `${action}:email:${emailOf(request)}`,
        }) as Hook)
      : noLimit;
  return { perIp, perEmail };
}
