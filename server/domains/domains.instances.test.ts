import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerAdmin } from '../admin/admin-test-support';
import { testRedisUrl as redisUrl } from '../test/redis';
import { createTwoInstancesOnOneDatabase, type InstancesOnOneDatabase, twoInstancesMissing, until } from '../test/two-instances';
import type { TestApp } from '../test/test-app';
import { person } from '../workspaces/workspaces.test-support';
import { addDomainAs, domainCall } from './domains.test-support';

// Two instances on one PostgreSQL database and Redis: a domain changed through A is known to B's
// registry (which its redirects and tls-allowed read) at once, not at B's next start.

const missing = await twoInstancesMissing('domains.instances.test', redisUrl);

describe.skipIf(missing.length > 0)('a domain changed on one instance, seen by the other through Redis (PostgreSQL)', () => {
  let a: TestApp;
  let instances: InstancesOnOneDatabase;
  let b: FastifyInstance;
  beforeAll(async () => {
    instances = await createTwoInstancesOnOneDatabase(redisUrl);
    ({ a, b } = instances);
  });
  afterAll(() => instances?.close());

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
