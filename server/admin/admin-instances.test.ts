import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { type DatabaseHandle, openDatabase } from '../db/database';
import { createLinkAs } from '../links/links.test-support';
import { agents } from '../redirect/redirect.test-support';
import { createTestApp, type TestApp } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { call, registerAdmin } from './admin-test-support';
import { redisReachable, testRedisUrl as redisUrl } from '../test/redis';

// Two instances behind a load balancer: one PostgreSQL database (a pool each) and Redis. An
// operator disables a link, or its owner, through instance A; instance B, which had the link in its
// redirect cache, answers its next visit with the 410 page.

const databaseUrl = process.env.TEST_DATABASE_URL;

const missing = [
  databaseUrl ? undefined : 'TEST_DATABASE_URL is unset (PostgreSQL is needed to share a database)',
  (await redisReachable(redisUrl)) ? undefined : `no Redis at ${redisUrl}`,
].filter(Boolean);
if (missing.length > 0) console.warn(`admin-instances.test skipped: ${missing.join('; ')}`);

/** Pub/sub delivery is asynchronous: wait for it (without visiting meanwhile), but not forever. */
async function until(condition: () => boolean): Promise<boolean> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}

describe.skipIf(missing.length > 0)('disabling on one instance, seen by the other through Redis (PostgreSQL)', () => {
  let a: TestApp;
  let bDatabase: DatabaseHandle;
  let b: FastifyInstance;
  let admin: Awaited<ReturnType<typeof registerAdmin>>;
  beforeAll(async () => {
    a = await createTestApp('postgres', { REDIS_URL: redisUrl, AUTH_RATE_LIMIT_IP: '0' });
    // B: a process of its own would open its own pool on the same schema.
    const target = a.database.target;
    if (target?.kind !== 'postgres') throw new Error('instance A is not on PostgreSQL');
    bDatabase = openDatabase(target);
    b = await buildApp({ config: a.config, database: bDatabase });
    await b.appContext.linkCache.listening;
    admin = await registerAdmin(a);
  });
  afterAll(async () => {
    await b?.close();
    await bDatabase?.close();
    await a?.close();
  });

  const visitB = (code: string) => b.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': agents.desktop } });

  /** A link of a new user, visited through B so that B holds it in its cache. */
  async function linkCachedOnB() {
    const owner = await registerUser(a.app);
    const link = await createLinkAs(a.app, owner.cookie, { longUrl: 'https://example.com/destino' });
    expect((await visitB(link.shortCode)).statusCode).toBe(302);
    expect(b.appContext.linkCache.peek(link.shortCode)).toBeDefined();
    return { owner, link };
  }

  it('a link disabled through A answers 410 on B at its next visit', async () => {
    const { link } = await linkCachedOnB();
    const off = await call(a.app, admin.cookie, 'PATCH', `/api/admin/links/${link.id}`, { disabled: true, reason: 'Phishing' });
    expect(off.statusCode).toBe(200);
    expect(await until(() => b.appContext.linkCache.peek(link.shortCode) === undefined)).toBe(true);
    const next = await visitB(link.shortCode);
    expect(next.statusCode).toBe(410);
    expect(next.body).toContain('Este link ha sido desactivado');
  });

  it("a user disabled through A: their link answers 410 on B at its next visit", async () => {
    const { owner, link } = await linkCachedOnB();
    const off = await call(a.app, admin.cookie, 'PATCH', `/api/admin/users/${owner.user.id}`, { disabled: true });
    expect(off.statusCode).toBe(200);
    expect(await until(() => b.appContext.linkCache.peek(link.shortCode) === undefined)).toBe(true);
    const next = await visitB(link.shortCode);
    expect(next.statusCode).toBe(410);
    expect(next.body).toContain('Este link ha sido desactivado');
  });
});
