import { randomBytes } from 'node:crypto';
import { errorMessages } from '@common/messages';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../http/app-error';
import { clientKey } from '../http/client-key';
import type { AttemptStore } from './attempt-store';

// Password guessing is slowed, never turned into a lockout of the real owner (ASVS 2.2.1):
// - per account and client: AUTH_RATE_LIMIT_EMAIL failed logins in 15 minutes, then that client
//   (alone) waits until the window ends;
// - per account, from clients it does not know: beyond twice that many failures (within an hour of
//   each other), one attempt is let through and the next one waits 1 s, then 2 s, 4 s... up to
//   15 minutes. A guesser spread over many addresses gets a handful of tries an hour;
// - a client known to the account (it signed in to it within 30 days, from the same address or
//   with the same browser's device cookie) is never slowed by what others do.
// Only failures count: an attempt is counted when it starts (so a burst is counted at once) and
// taken back when it signs in or never reached the password check.

const PAIR_WINDOW_MS = 15 * 60 * 1000;
const ACCOUNT_WINDOW_MS = 60 * 60 * 1000;
const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 15 * 60 * 1000;
const KNOWN_FOR_MS = 30 * 24 * 60 * 60 * 1000;
export const DEVICE_COOKIE = 'corto_device';

const accountOf = (email: string) => email.trim().toLowerCase();
// Parts joined unambiguously, whatever characters an e-mail or a cookie holds.
const key = (...parts: string[]) => JSON.stringify(parts);

function tooMany(waitMs: number): AppError {
  return new AppError('rate_limited', errorMessages.rateLimited, undefined, Math.max(1, Math.ceil(waitMs / 1000)));
}

/** The wait the account imposes on unknown clients after its n-th failure beyond the threshold. */
export function backoffMs(beyond: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.min(30, Math.max(0, beyond - 1)));
}

interface Attempt {
  /** The password was right: this client's failures are forgotten and it is known to the account. */
  succeeded(reply: FastifyReply): Promise<void>;
  /** The password was never checked (busy, database away): the attempt is not counted. */
  cancel(): Promise<void>;
}

export interface LoginGuard {
  /**
   * Runs check (the password's) as an attempt on the account, or refuses it with 429 and
   * Retry-After; what check gives back means signed in, undefined a failure.
   */
  attempt<T>(request: FastifyRequest, reply: FastifyReply, email: string, check: () => Promise<T | undefined>): Promise<T | undefined>;
  /** Makes this client known to the account (after a sign-up). */
  remember(request: FastifyRequest, reply: FastifyReply, email: string): Promise<void>;
}

export function createLoginGuard(config: Config, store: AttemptStore): LoginGuard {
  const perClient = config.authRateLimitPerEmail;
  const accountThreshold = 2 * perClient;
  const secure = config.publicBaseUrl.startsWith('https:');

  const clientOf = (request: FastifyRequest) => clientKey(request.ip);
  const deviceOf = (request: FastifyRequest) => request.cookies?.[DEVICE_COOKIE];

  async function isKnown(request: FastifyRequest, account: string): Promise<boolean> {
    if (await store.marked(key('known', account, 'client', clientOf(request)))) return true;
    const device = deviceOf(request);
    return device !== undefined && (await store.marked(key('known', account, 'device', device)));
  }

  async function remember(request: FastifyRequest, reply: FastifyReply, email: string): Promise<void> {
    if (perClient <= 0) return;
    const account = accountOf(email);
    await store.mark(key('known', account, 'client', clientOf(request)), KNOWN_FOR_MS);
    // One random value per browser, kept for every account signed in from it.
    const device = deviceOf(request) ?? randomBytes(16).toString('base64url');
    await store.mark(key('known', account, 'device', device), KNOWN_FOR_MS);
    reply.setCookie(DEVICE_COOKIE, device, {
      path: '/api/auth',
      httpOnly: true,
      sameSite: 'lax',
      secure,
      maxAge: KNOWN_FOR_MS / 1000,
    });
  }

  const noop = async () => {};
  const unguarded: Attempt = { succeeded: noop, cancel: noop };

  async function begin(request: FastifyRequest, email: string): Promise<Attempt> {
    if (perClient <= 0) return unguarded;
    const account = accountOf(email);
    const pairKey = key('fail', account, 'client', clientOf(request));
    const pair = await store.hit(pairKey, PAIR_WINDOW_MS, false);
    if (pair.count > perClient) {
      await store.undo(pairKey);
      throw tooMany(pair.resetAt - Date.now());
    }
    // Failures of clients known to the account neither count towards nor wait for its slowdown.
    const accountKey = (await isKnown(request, account)) ? undefined : key('fail', account);
    if (accountKey) {
      const { count } = await store.hit(accountKey, ACCOUNT_WINDOW_MS, true);
      if (count > accountThreshold) {
        // One attempt per backoff period, taken by whoever comes first.
        const waitMs = await store.claim(key('slow', account), backoffMs(count - accountThreshold));
        if (waitMs > 0) {
          await store.undo(accountKey);
          await store.undo(pairKey);
          throw tooMany(waitMs);
        }
      }
    }
    return {
      async succeeded(reply) {
        await store.clear(pairKey);
        if (accountKey) await store.undo(accountKey);
        await remember(request, reply, email);
      },
      async cancel() {
        await store.undo(pairKey);
        if (accountKey) await store.undo(accountKey);
      },
    };
  }

  return {
    async attempt(request, reply, email, check) {
      const attempt = await begin(request, email);
      let result;
      try {
        result = await check();
      } catch (error) {
        await attempt.cancel();
        throw error;
      }
      if (result !== undefined) await attempt.succeeded(reply);
      return result;
    },
    remember,
  };
}
