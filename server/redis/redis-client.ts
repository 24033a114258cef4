import { createRequire } from 'node:module';
import type * as ioredis from 'ioredis';
import type { Redis, RedisOptions } from 'ioredis';

// ioredis and its command table are a tenth of the server bundle, and compiling them took about
// 10 ms of every start; an install without REDIS_URL never makes a client. So the module is read
// from node_modules the first time a client is made, not bundled and loaded at start.
const requireFromHere = createRequire(import.meta.url);
let RedisClient: typeof Redis | undefined;

/** A Redis client (ioredis), its module loaded on the first call. */
export function newRedis(url: string, options: RedisOptions): Redis {
  RedisClient ??= (requireFromHere('ioredis') as typeof ioredis).Redis;
  return new RedisClient(url, options);
}
