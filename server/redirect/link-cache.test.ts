import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, createTwoInstancesOnRedis } from '../test/test-app';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { createLinkAs } from '../links/links.test-support';
import { registerUser, sameOrigin } from '../test/test-users';
import { agents, insertLink } from './redirect.test-support';
import { redisReachable, testRedisUrl as redisUrl } from '../test/redis';

// Two instances sharing Redis: a link deleted through one stops redirecting on the other.

const hasRedis = await redisReachable(redisUrl);
if (!hasRedis) console.warn(`link-cache.test: no Redis at ${redisUrl}; cross-instance test skipped`);

async function until(condition: () => boolean) {
  // Pub/sub delivery is asynchronous: wait for it, but not forever.
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}

describe.runIf(hasRedis).each(testDialects)('the link cache across instances on %s', (dialect) => {
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    [one, two] = await createTwoInstancesOnRedis(dialect, redisUrl);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
  });

  it('forgets a deleted link on every instance, through Redis', async () => {
    // Each test app has its own database; the same code in both stands for one shared link.
    const code = `r${Date.now().toString(36).slice(-5)}`;
    await insertLink(one.database.db, { shortUrl: code, customUrl: `Alias-${code}` });
    const onTwo = await insertLink(two.database.db, { shortUrl: code, customUrl: `Alias-${code}` });
    expect((await two.app.inject({ method: 'GET', url: `/alias-${code}` })).statusCode).toBe(302);
    expect(two.app.appContext.linkCache.peek(`alias-${code}`)).toBeDefined();

    // Deleted in the database; only the first instance is told, as the DELETE route would do.
    await two.database.db.deleteFrom('urls').where('id', '=', onTwo.id).execute();
    await one.app.appContext.linkCache.forget({ shortCode: code, customUrl: `Alias-${code}` });

    expect(await until(() => two.app.appContext.linkCache.peek(`alias-${code}`) === undefined)).toBe(true);
    expect((await two.app.inject({ method: 'GET', url: `/alias-${code}` })).statusCode).toBe(404);
  });
});

describe.runIf(hasRedis).each(testDialects)('edits reaching every instance on %s', (dialect) => {
  // Two instances over one database, as behind a load balancer.
  let one: TestApp;
  let two: FastifyInstance;
  beforeAll(async () => {
    one = await createTestApp(dialect, { REDIS_URL: redisUrl, ALLOW_PRIVATE_DESTINATIONS: 'false' });
    two = await buildApp({ config: one.config, database: one.database });
    await two.appContext.linkCache.listening;
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('sends the next visit on the other instance to the new destination, alias and state', async () => {
    const { cookie } = await registerUser(one.app);
    const link = await createLinkAs(one.app, cookie, { longUrl: 'https://example.com/antes', customUrl: `Antes-${Date.now()}` });
    const visitTwo = (address: string) => two.inject({ method: 'GET', url: `/${address}`, headers: { 'user-agent': agents.desktop } });
    expect((await visitTwo(link.shortCode)).headers.location).toBe('https://example.com/antes');
    expect(two.appContext.linkCache.peek(link.shortCode)).toBeDefined();

    const edit = (payload: object) =>
      one.app.inject({ method: 'PATCH', url: `/api/links/${link.id}`, headers: { cookie, ...sameOrigin }, payload });
    expect((await edit({ longUrl: 'https://example.com/despues' })).statusCode).toBe(200);
    expect(await until(() => two.appContext.linkCache.peek(link.shortCode) === undefined)).toBe(true);
    expect((await visitTwo(link.shortCode)).headers.location).toBe('https://example.com/despues');

    const alias = `Despues-${Date.now()}`;
    expect((await edit({ customUrl: alias })).statusCode).toBe(200);
    expect(await until(() => two.appContext.linkCache.peek(link.shortCode) === undefined)).toBe(true);
    expect((await visitTwo(alias)).headers.location).toBe('https://example.com/despues');
    expect((await visitTwo(link.customUrl!)).headers.location).toBe('https://example.com/despues');

    expect((await edit({ paused: true })).statusCode).toBe(200);
    expect(await until(() => two.appContext.linkCache.peek(alias.toLowerCase()) === undefined)).toBe(true);
    expect((await visitTwo(alias)).statusCode).toBe(404);
  });
});
