import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerAdmin } from '../admin/admin-test-support';
import { buildApp } from '../app';
import { type DatabaseHandle, openDatabase } from '../db/database';
import { redisReachable, testRedisUrl as redisUrl } from '../test/redis';
import { createTestApp, type TestApp } from '../test/test-app';
import { person } from '../workspaces/workspaces.test-support';
import { addDomainAs, domainCall } from './domains.test-support';

// Two instances on one PostgreSQL database and Redis: a domain changed through A is known to B's
// registry (which its redirects and tls-allowed read) at once, not at B's next start.

const databaseUrl = process.env.TEST_DATABASE_URL;
const missing = [
  databaseUrl ? undefined : 'TEST_DATABASE_URL is unset (PostgreSQL is needed to share a database)',
  (await redisReachable(redisUrl)) ? undefined : `no Redis at ${redisUrl}`,
].filter(Boolean);
if (missing.length > 0) console.warn(`domains.instances.test skipped: ${missing.join('; ')}`);

async function until(condition: () => boolean): Promise<boolean> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}

describe.skipIf(missing.length > 0)('a domain changed on one instance, seen by the other through Redis (PostgreSQL)', () => {
  let a: TestApp;
  let bDatabase: DatabaseHandle;
  let b: FastifyInstance;
  beforeAll(async () => {
    a = await createTestApp('postgres', { REDIS_URL: redisUrl, AUTH_RATE_LIMIT_IP: '0' });
    const target = a.database.target;
    if (target?.kind !== 'postgres') throw new Error('instance A is not on PostgreSQL');
    bDatabase = openDatabase(target);
    b = await buildApp({ config: a.config, database: bDatabase });
    await b.appContext.linkCache.listening;
  });
  afterAll(async () => {
    await b?.close();
    await bDatabase?.close();
    await a?.close();
  });

  const tlsOnB = (hostname: string) => b.inject({ method: 'GET', url: `/api/domains/tls-allowed?domain=${hostname}` });

  it('added, verified, disabled, redirected and deleted through A: B knows each at once', async () => {
    const ana = await person(a.app, 'Ana');
    const admin = await registerAdmin(a);
    const domain = await addDomainAs(a.app, ana.cookie, `dos-${Date.now().toString(36)}.empresa.test`);
    expect(await until(() => b.appContext.hostedDomains.byId(domain.id) !== undefined)).toBe(true);
    expect((await tlsOnB(domain.hostname)).statusCode).toBe(404);

    // Verified (the lookup is tested against dnsmasq; here the row, then the same announcement).
    await a.database.db.updateTable('domains').set({ verified_at: Date.now() }).where('id', '=', domain.id).execute();
    await domainCall(a.app, ana.cookie, 'PATCH', `/api/domains/${domain.id}`, undefined, { rootRedirect: 'https://empresa.test/' });
    expect(await until(() => b.appContext.hostedDomains.byId(domain.id)?.verified === true)).toBe(true);
    expect(b.appContext.hostedDomains.byId(domain.id)?.rootRedirect).toBe('https://empresa.test/');
    expect((await tlsOnB(domain.hostname)).statusCode).toBe(200);

    await call(a.app, admin.cookie, 'PATCH', `/api/admin/domains/${domain.id}`, { disabled: true });
    expect(await until(() => b.appContext.hostedDomains.byId(domain.id)?.disabled === true)).toBe(true);

    expect((await domainCall(a.app, ana.cookie, 'DELETE', `/api/domains/${domain.id}`)).statusCode).toBe(204);
    expect(await until(() => b.appContext.hostedDomains.byId(domain.id) === undefined)).toBe(true);
    expect((await tlsOnB(domain.hostname)).statusCode).toBe(404);
  });
});
