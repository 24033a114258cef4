import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { migrateToLatest } from '../db/migrate';
import { startTcpProxy, type TcpProxy } from '../reliability/tcp-proxy';
import { openTestDatabase } from '../test/test-app';
import { makeImage, multipart, sameOrigin, sessionCookie } from '../test/test-users';
import { redisReachable, testRedisAddress } from '../test/redis';

// Two instances of Corto sharing one Redis (TEST_REDIS_URL or the machine's, through a TCP relay
// the test can cut): their rate limits count together, and without Redis each counts alone.

const redis = testRedisAddress;
const hasRedis = await redisReachable(`redis://${redis.host}:${redis.port}`);
if (!hasRedis) console.warn(`shared-state.test: no Redis on ${redis.host}:${redis.port}; skipped`);

interface Instance {
  app: FastifyInstance;
  logs: string[];
  close(): Promise<void>;
}

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'corto-shared-'));
  const { database, drop } = await openTestDatabase('sqlite', dataDir);
  await migrateToLatest(database.db);
  const logs: string[] = [];
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env }), webDir: undefined };
  const app = await buildApp({ config, database, logStream: { write: (line: string) => void logs.push(line) } });
  return {
    app,
    logs,
    async close() {
      await app.close();
      await database.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A client address of its own per test (the Redis is shared with whoever else uses it). */
const someClient = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

const login = (instance: Instance, client: string, email = `nadie-${client}@corto.test`) =>
  instance.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'x-forwarded-for': client, ...sameOrigin },
    payload: { email, password: 'incorrecta-1' },
  });
const visitUnknown = (instance: Instance, client: string) =>
  instance.app.inject({ method: 'GET', url: `/no${Math.random().toString(36).slice(2, 8)}`, headers: { 'x-forwarded-for': client } });

/** The same account (one e-mail) signed up on an instance, from a client of its own: the session's cookie. */
async function signUp(instance: Instance, email: string): Promise<string> {
  const body = await multipart({ name: 'Ana Compartida', email, password: 'secreto-123', profileImage: { bytes: await makeImage(), filename: 'a.png', type: 'image/png' } });
  const response = await instance.app.inject({ method: 'POST', url: '/api/auth/register', payload: body.payload, headers: { ...body.headers, 'x-forwarded-for': someClient() } });
  return sessionCookie(response);
}

async function until(condition: () => boolean, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!hasRedis)('rate limits shared by two instances through Redis', () => {
  let proxy: TcpProxy;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    proxy = await startTcpProxy(redis);
    const env = {
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      TRUST_PROXY: 'true',
      AUTH_RATE_LIMIT_IP: '4',
      AUTH_RATE_LIMIT_EMAIL: '2',
      REDIRECT_MISS_LIMIT: '3',
    };
    [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await proxy?.close();
  });

  it('counts one client sign-in attempts across both: the fifth is refused wherever it lands', async () => {
    const client = someClient();
    const statuses = [];
    for (const instance of [a, b, a, b]) statuses.push((await login(instance, client, `${Math.random()}@corto.test`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401]);
    const fifth = await login(a, client, `${Math.random()}@corto.test`);
    expect(fifth.statusCode).toBe(429);
    expect(Number(fifth.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(b, client, `${Math.random()}@corto.test`)).statusCode).toBe(429);
  });

  it('counts wrong passwords on one account from one client across both (the login guard)', async () => {
    const client = someClient();
    const email = `cuenta-${client}@corto.test`;
    expect((await login(a, client, email)).statusCode).toBe(401);
    expect((await login(b, client, email)).statusCode).toBe(401);
    expect((await login(a, client, email)).statusCode).toBe(429);
  });

  it('counts unknown addresses across both: the instance that sees the limit reached refuses at once, the other at its next miss', async () => {
    const client = someClient();
    expect((await visitUnknown(a, client)).statusCode).toBe(404);
    expect((await visitUnknown(b, client)).statusCode).toBe(404);
    expect((await visitUnknown(a, client)).statusCode).toBe(404);
    // The third miss (of three allowed) was A's: A heard the shared count is spent.
    expect((await visitUnknown(a, client)).statusCode).toBe(429);
    // Per instance, B would allow two more misses; shared, at most the one that tells it.
    const fromB = [(await visitUnknown(b, client)).statusCode, (await visitUnknown(b, client)).statusCode];
    expect(fromB.at(-1)).toBe(429);
    expect(fromB.filter((status) => status === 404).length).toBeLessThanOrEqual(1);
  });

  it('counts wrong current passwords and wrong two-factor codes of the account page across both', async () => {
    const email = `pagina-${Math.random().toString(36).slice(2)}@corto.test`;
    // Each instance has a database of its own: the account is signed up on both (the guard counts by e-mail and client).
    const sessions = new Map([[a, await signUp(a, email)], [b, await signUp(b, email)]]);
    const client = someClient();
    const call = (instance: Instance, url: string, payload: object) =>
      instance.app.inject({ method: 'POST', url, payload, headers: { cookie: sessions.get(instance)!, 'x-forwarded-for': client, ...sameOrigin } });

    // AUTH_RATE_LIMIT_EMAIL=2: two wrong guesses in all, whichever instance hears them; per instance it was four.
    const passwords = [];
    for (const instance of [a, b, a, b]) {
      passwords.push((await call(instance, '/api/account/password', { currentPassword: 'no-es-la-mia-1', newPassword: 'otra-clave-larga-9' })).statusCode);
    }
    expect(passwords.filter((status) => status === 400)).toHaveLength(2);
    expect(passwords.slice(2)).toEqual([429, 429]);

    for (const instance of [a, b]) expect((await instance.app.inject({ method: 'POST', url: '/api/account/totp', headers: { cookie: sessions.get(instance)!, ...sameOrigin } })).statusCode).toBe(200);
    const codes = [];
    for (const instance of [b, a, b, a]) codes.push((await call(instance, '/api/account/totp/confirm', { code: '000000' })).statusCode);
    expect(codes.filter((status) => status === 400)).toHaveLength(2);
    expect(codes.slice(2)).toEqual([429, 429]);
  });

  it('keeps serving with Redis gone, each instance counting alone (with a log line), and shares again once it is back', async () => {
    await proxy.cut();
    const client = someClient();
    // Per instance now: four on A and four on B all answered, where shared the fifth was refused.
    const statuses = [];
    for (const instance of [a, a, a, a, b, b, b, b]) statuses.push((await login(instance, client, `${Math.random()}@corto.test`)).statusCode);
    expect(statuses).toEqual(Array(8).fill(401));
    // And the per-instance limit still holds.
    expect((await login(a, client, `${Math.random()}@corto.test`)).statusCode).toBe(429);
    for (const instance of [a, b]) {
      expect(instance.logs.join('')).toContain('Redis unavailable: rate limits now count per instance until it is back');
      expect(instance.logs.join('')).toContain('Redis unavailable: login attempts counted per instance until it is back');
    }
    // Redirects and the rest keep working meanwhile.
    expect((await visitUnknown(a, someClient())).statusCode).toBe(404);
    expect((await a.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    await proxy.restore();
    await until(
      () => [a, b].every((instance) => instance.logs.join('').includes('Redis back: rate limits shared by every instance again')),
      'both instances back on Redis',
    );
    const again = someClient();
    for (const instance of [a, b, a, b]) expect((await login(instance, again, `${Math.random()}@corto.test`)).statusCode).toBe(401);
    expect((await login(b, again, `${Math.random()}@corto.test`)).statusCode).toBe(429);
  });
});
