import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';
import { bearer, createTokenAs } from './tokens.test-support';
import { redisReachable, testRedisUrl as redisUrl } from '../test/redis';

const hasRedis = await redisReachable(redisUrl);
if (!hasRedis) console.warn(`bearer-limits.test: no Redis at ${redisUrl}; cross-instance tests skipped`);

async function until(condition: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

describe.each(testDialects)('a token rate limit on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { API_RATE_LIMIT: '3' });
    cookie = (await registerUser(t.app)).cookie;
  });
  afterAll(async () => t?.close());

  it('announces RateLimit-* on every bearer answer and answers 429 with Retry-After beyond it', async () => {
    const { secret } = await createTokenAs(t.app, cookie, { scope: 'read' });
    const remaining: string[] = [];
    // A refused write counts too, and carries the headers as well.
    const statuses: number[] = [];
    for (const method of ['GET', 'POST', 'GET'] as const) {
      const response = await t.app.inject({ method, url: '/api/links', headers: bearer(secret), payload: method === 'POST' ? {} : undefined });
      statuses.push(response.statusCode);
      expect(response.headers['ratelimit-limit']).toBe('3');
      const reset = Number(response.headers['ratelimit-reset']);
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(60);
      remaining.push(String(response.headers['ratelimit-remaining']));
    }
    expect(statuses).toEqual([200, 403, 200]);
    expect(remaining).toEqual(['2', '1', '0']);
    const refused = await t.app.inject({ method: 'GET', url: '/api/links', headers: bearer(secret) });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-remaining']).toBe('0');

    // Each token has its own allowance; cookie requests are not counted against it.
    const other = await createTokenAs(t.app, cookie, { scope: 'read' });
    expect((await t.app.inject({ method: 'GET', url: '/api/links', headers: bearer(other.secret) })).statusCode).toBe(200);
    const withCookie = await t.app.inject({ method: 'GET', url: '/api/links', headers: { cookie } });
    expect(withCookie.statusCode).toBe(200);
    expect(withCookie.headers['ratelimit-limit']).toBeUndefined();
  });
});

describe.each(testDialects)('Idempotency-Key with a token on %s', (dialect) => {
  let t: TestApp;
  let secret: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { cookie } = await registerUser(t.app);
    secret = (await createTokenAs(t.app, cookie)).secret;
  });
  afterAll(async () => t?.close());

  const post = (key: string, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/links', headers: { ...bearer(secret), 'idempotency-key': key }, payload });

  it('gives a retry the first answer and creates nothing twice; another body with the key is 422', async () => {
    const key = `clave-${Date.now()}`;
    const body = { title: 'Reintento', longUrl: 'https://example.com/reintento' };
    const first = await post(key, body);
    const second = await post(key, body);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().link.id).toBe(first.json().link.id);
    const rows = await t.database.db.selectFrom('urls').select('id').where('title', '=', 'Reintento').execute();
    expect(rows).toHaveLength(1);

    const mismatch = await post(key, { ...body, title: 'Otra cosa' });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().error.code).toBe('idempotency_key_reused');
  });
});

describe.runIf(hasRedis).each(testDialects)('tokens across instances on %s', (dialect) => {
  // Two instances over one database and one Redis, as behind a load balancer.
  let one: TestApp;
  let two: FastifyInstance;
  let cookie: string;
  beforeAll(async () => {
    one = await createTestApp(dialect, { REDIS_URL: redisUrl, API_RATE_LIMIT: '4' });
    two = await buildApp({ config: one.config, database: one.database });
    await Promise.all([one.app.appContext.tokenCache.listening, two.appContext.tokenCache.listening]);
    cookie = (await registerUser(one.app)).cookie;
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('stops a token revoked on one instance on the other one too, though it had it cached', async () => {
    const { token, secret } = await createTokenAs(one.app, cookie);
    expect((await two.inject({ method: 'GET', url: '/api/links', headers: bearer(secret) })).statusCode).toBe(200);
    const revoke = await one.app.inject({ method: 'DELETE', url: `/api/tokens/${token.id}`, headers: { cookie, ...sameOrigin } });
    expect(revoke.statusCode).toBe(204);
    expect(await until(async () => (await two.inject({ method: 'GET', url: '/api/links', headers: bearer(secret) })).statusCode === 401)).toBe(true);
  });

  it('shares one allowance between the instances', async () => {
    const { secret } = await createTokenAs(one.app, cookie, { scope: 'read' });
    const statuses: number[] = [];
    for (const app of [one.app, two, one.app, two, one.app]) {
      statuses.push((await app.inject({ method: 'GET', url: '/api/links', headers: bearer(secret) })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});
