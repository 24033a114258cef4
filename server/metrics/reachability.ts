import { newRedis } from '../redis/redis-client';
import { sql } from 'kysely';
import type { AppContext } from '../app-context';

/** Each dependency's state at this moment: true when it answered within CHECK_MS. */
export type Reachability = () => Promise<Record<string, boolean>>;

const CHECK_MS = 2000;

async function answers(check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, CHECK_MS, false)));
  try {
    return await Promise.race([check().then(() => true), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The metrics' view of the database, the object store and Redis (when REDIS_URL is set), asked in
 * parallel when /metrics is scraped: a gauge an alert can watch, where readiness is a proxy's
 * yes or no. Redis through a connection of its own, so the answer is about Redis, not a busy client.
 */
export function createReachability({ database, storage, config }: Pick<AppContext, 'database' | 'storage' | 'config'>) {
  const redis = config.redisUrl ? newRedis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true }) : undefined;
  redis?.on('error', () => {});
  const check: Reachability = async () => {
    const [db, store, cache] = await Promise.all([
      answers(() => sql`select 1`.execute(database.db)),
      answers(() => storage.check()),
      redis
        ? answers(async () => {
            if (redis.status === 'wait' || redis.status === 'end') await redis.connect();
            await redis.ping();
          })
        : undefined,
    ]);
    return { database: db, storage: store, ...(cache === undefined ? {} : { redis: cache }) };
  };
  return { check, close: () => redis?.disconnect() };
}
