import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { newRedis } from '../redis/redis-client';
import { type AttemptStore, createMemoryAttemptStore } from './attempt-store';

const PREFIX = 'corto:login';

/** Keys hashed (no e-mail or address in Redis in clear), the same on every instance. */
const digest = (key: string) => `${PREFIX}:${createHash('sha256').update(key).digest('base64url').slice(0, 22)}`;

// One more for a key, its window fixed (expiry set at the first hit) or sliding (set at each): count and ms left.
const HIT = `local c = redis.call('INCR', KEYS[1])
if c == 1 or ARGV[2] == '1' then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {c, redis.call('PTTL', KEYS[1])}`;
// One fewer, gone at zero.
const UNDO = `local c = redis.call('DECR', KEYS[1])
if c <= 0 then redis.call('DEL', KEYS[1]) end
return c`;

export interface RedisAttemptStore extends AttemptStore {
  close(): Promise<void>;
}

/**
 * The login guard's counts and marks in Redis, so every instance sees every attempt on an account.
 * While Redis is away each operation falls back to this instance's memory store (one warning per
 * outage), and the next that reaches Redis again goes back to it: sign-in keeps working, its
 * limits per instance for the while.
 */
export function createRedisAttemptStore(redisUrl: string, log: FastifyBaseLogger): RedisAttemptStore {
  const client = newRedis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  const memory = createMemoryAttemptStore();
  let degraded = false;
  client.on('error', () => {});
  const run = async <T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T> => {
    if (client.status === 'ready') {
      try {
        const result = await shared();
        if (degraded) log.info('Redis back: login attempts counted across instances again');
        degraded = false;
        return result;
      } catch (error) {
        if (!degraded) log.warn({ err: error }, 'Redis unavailable: login attempts counted per instance until it is back');
        degraded = true;
        return local();
      }
    }
    if (!degraded) log.warn({ status: client.status }, 'Redis unavailable: login attempts counted per instance until it is back');
    degraded = true;
    return local();
  };
  return {
    hit: (key, windowMs, sliding) =>
      run(
        async () => {
          const [count, ttl] = (await client.eval(HIT, 1, digest(key), String(windowMs), sliding ? '1' : '0')) as [number, number];
          return { count, resetAt: Date.now() + Math.max(0, ttl) };
        },
        () => memory.hit(key, windowMs, sliding),
      ),
    undo: (key) => run(async () => void (await client.eval(UNDO, 1, digest(key))), () => memory.undo(key)),
    clear: (key) => run(async () => void (await client.del(digest(key))), () => memory.clear(key)),
    claim: (key, ttlMs) =>
      run(
        async () => {
          const id = `${digest(key)}:claim`;
          if ((await client.set(id, '1', 'PX', ttlMs, 'NX')) === 'OK') return 0;
          return Math.max(1, await client.pttl(id));
        },
        () => memory.claim(key, ttlMs),
      ),
    mark: (key, ttlMs) => run(async () => void (await client.set(`${digest(key)}:mark`, '1', 'PX', ttlMs)), () => memory.mark(key, ttlMs)),
    marked: (key) => run(async () => (await client.exists(`${digest(key)}:mark`)) === 1, () => memory.marked(key)),
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
