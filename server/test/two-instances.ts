import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { openDatabase } from '../db/database';
import { redisReachable } from './redis';
import { createTestApp, type TestApp } from './test-app';

// Two instances behind a load balancer, as the tests of shared state need them: one PostgreSQL
// database (a pool each, as two processes would have) and one Redis.

/** Why the two-instance tests cannot run here (logged with the test's name), or [] when they can. */
export async function twoInstancesMissing(testName: string, redisUrl: string): Promise<string[]> {
  const missing = [
    process.env.TEST_DATABASE_URL ? undefined : 'TEST_DATABASE_URL is unset (PostgreSQL is needed to share a database)',
    (await redisReachable(redisUrl)) ? undefined : `no Redis at ${redisUrl}`,
  ].filter((reason) => reason !== undefined);
  if (missing.length > 0) console.warn(`${testName} skipped: ${missing.join('; ')}`);
  return missing;
}

export interface InstancesOnOneDatabase {
  a: TestApp;
  /** B: a second app on A's very schema. */
  b: FastifyInstance;
  close(): Promise<void>;
}

/** Instance A and instance B on one PostgreSQL schema and one Redis; B listens for A's news (links, tokens) when this returns. */
export async function createTwoInstancesOnOneDatabase(redisUrl: string, env: Record<string, string> = {}): Promise<InstancesOnOneDatabase> {
  const a = await createTestApp('postgres', { REDIS_URL: redisUrl, AUTH_RATE_LIMIT_IP: '0', ...env });
  const target = a.database.target;
  if (target?.kind !== 'postgres') throw new Error('instance A is not on PostgreSQL');
  const bDatabase = openDatabase(target);
  const b = await buildApp({ config: a.config, database: bDatabase });
  await Promise.all([b.appContext.linkCache.listening, b.appContext.tokenCache.listening]);
  return {
    a,
    b,
    async close() {
      await b.close();
      await bDatabase.close();
      await a.close();
    },
  };
}

/** Pub/sub delivery is asynchronous: waits for it (without visiting meanwhile), but not forever. */
export async function until(condition: () => boolean): Promise<boolean> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}
