import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { agents } from '../redirect/redirect.test-support';
import type { TestApp } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { call, registerAdmin } from './admin-test-support';
import { testRedisUrl as redisUrl } from '../test/redis';
import { createTwoInstancesOnOneDatabase, type InstancesOnOneDatabase, twoInstancesMissing, until } from '../test/two-instances';

// Two instances behind a load balancer: one PostgreSQL database (a pool each) and Redis. An
// operator disables a link, or its owner, through instance A; instance B, which had the link in its
// redirect cache, answers its next visit with the 410 page.

const missing = await twoInstancesMissing('admin-instances.test', redisUrl);

describe.skipIf(missing.length > 0)('disabling on one instance, seen by the other through Redis (PostgreSQL)', () => {
  let a: TestApp;
  let instances: InstancesOnOneDatabase;
  let b: FastifyInstance;
  let admin: Awaited<ReturnType<typeof registerAdmin>>;
  beforeAll(async () => {
    instances = await createTwoInstancesOnOneDatabase(redisUrl);
    ({ a, b } = instances);
    admin = await registerAdmin(a);
  });
  afterAll(() => instances?.close());

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
