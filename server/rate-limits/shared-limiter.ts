import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { newRedis } from '../redis/redis-client';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** What one consumed point tells its caller: enough for the RateLimit-* headers and Retry-After. */
export interface LimitResult {
  allowed: boolean;
  /** Points in a window. */
  limit: number;
  /** Points left in this window (0 once refused). */
  remaining: number;
  /** Whole seconds until the window starts over (at least 1). */
  resetSeconds: number;
}

export interface SharedLimiter {
  readonly limit: number;
  /** Spends `points` (1) of `key`'s window; never throws for a refusal, only reports it. */
  consume(key: string, points?: number): Promise<LimitResult>;
  /** Forgets a key (a successful login clearing its failures, a test starting over). */
  reset(key: string): Promise<void>;
}

export interface SharedLimiterOptions {
  /** Unique per kind of limit: the prefix of its keys in Redis. */
  name: string;
  /** Points per window; 0 or less means no limit (every call allowed). */
  points: number;
  durationSeconds: number;
  /** Once refused, stay refused this long (0: until the window ends). */
  blockSeconds?: number;
}

export interface LimiterFactory {
  /** True when limits are shared through Redis (REDIS_URL set). */
  readonly shared: boolean;
  /** Settles once Redis first answers or first fails (at once without Redis): await it before serving. */
  readonly settled: Promise<void>;
  create(options: SharedLimiterOptions): SharedLimiter;
  close(): Promise<void>;
}

export interface LimiterFactoryOptions {
  redisUrl: string | undefined;
  log: FastifyBaseLogger;
}

const KEY_PREFIX = 'corto:rl';

function toResult(limit: number, res: RateLimiterRes, allowed: boolean): LimitResult {
  return {
    allowed,
    limit,
    remaining: allowed ? Math.max(0, res.remainingPoints) : 0,
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

const unlimited: SharedLimiter = {
  limit: 0,
  consume: async () => ({ allowed: true, limit: 0, remaining: 0, resetSeconds: 1 }),
  reset: async () => {},
};

/**
 * Makes rate limits that every instance shares through Redis when REDIS_URL is set (one
 * connection for them all), and that live in this process's memory otherwise. While Redis is
 * unreachable, each limit falls back to counting in memory per instance (rate-limiter-flexible's
 * insurance limiter), with one warning per outage: limits get looser for the while, never stuck.
 */
export function createLimiterFactory({ redisUrl, log }: LimiterFactoryOptions): LimiterFactory {
  let client: Redis | undefined;
  let degraded = false;
  let settled = Promise.resolve();
  if (redisUrl) {
    // A limit must not wait for Redis: commands fail at once while it is away (the insurance
    // limiter answers), and ioredis keeps reconnecting on its own.
    client = newRedis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    client.on('error', (error: Error) => {
      if (!degraded) log.warn({ err: error }, 'Redis unavailable: rate limits now count per instance until it is back');
      degraded = true;
    });
    client.on('ready', () => {
      if (degraded) log.info('Redis back: rate limits shared by every instance again');
      degraded = false;
    });
    const connecting = client;
    settled = new Promise((resolve) => {
      connecting.once('ready', () => resolve());
      connecting.once('error', () => resolve());
    });
  }

  return {
    shared: client !== undefined,
    settled,
    create({ name, points, durationSeconds, blockSeconds = 0 }) {
      if (points <= 0) return unlimited;
      const keyPrefix = `${KEY_PREFIX}:${name}`;
      const memory = new RateLimiterMemory({ keyPrefix, points, duration: durationSeconds, blockDuration: blockSeconds });
      const store = client
        ? new RateLimiterRedis({
            storeClient: client,
            keyPrefix,
            points,
            duration: durationSeconds,
            blockDuration: blockSeconds,
            rejectIfRedisNotReady: true,
            insuranceLimiter: memory,
          })
        : memory;
      return {
        limit: points,
        async consume(key, spent = 1) {
          try {
            return toResult(points, await store.consume(key, spent), true);
          } catch (refusal) {
            if (refusal instanceof RateLimiterRes) return toResult(points, refusal, false);
            // Neither Redis nor the insurance answered (should not happen): let the request through.
            log.warn({ err: refusal, limit: name }, 'rate limit could not be checked; request allowed');
            return { allowed: true, limit: points, remaining: points, resetSeconds: durationSeconds };
          }
        },
        async reset(key) {
          await store.delete(key).catch(() => memory.delete(key));
        },
      };
    },
    async close() {
      if (!client) return;
      await client.quit().catch(() => client?.disconnect());
    },
  };
}
