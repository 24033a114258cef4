import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Started } from '../../bench/lib/processes';
import { type ProcessDatabase, processDatabase, startServer } from '../reliability/server-process';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { reasonOf } from './reasons';

describe.each(testDialects)('GET /api/health (liveness) and /api/health/ready (readiness) on %s', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
  });
  afterEach(async () => {
    await t.close();
  });

  it('liveness answers 200 and names the database kind', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: dialect });
  });

  it('liveness stays 200 when the database does not answer; readiness answers 503 and says why in words', async () => {
    await t.database.db.destroy();
    const live = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(live.statusCode).toBe(200);
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().error.code).toBe('not_ready');
    expect(ready.json().error.message).toMatch(/todavía no está listo/);
    // A reason, not an error's class name ('Error', 'TypeError').
    expect(ready.json().checks.database).toBe('sin conexión');
  });
});

describe('reasons a readiness check gives', () => {
  it('names the cause of the errors the database, Redis and the store give, never their class or message', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
    expect(reasonOf(refused)).toBe('conexión rechazada');
    expect(reasonOf(Object.assign(new Error('password authentication failed for user "corto"'), { code: '28P01' }))).toBe('credenciales rechazadas');
    expect(reasonOf(new AggregateError([refused, refused], ''))).toBe('conexión rechazada');
    // The store's error wraps the SDK's.
    const sdk = Object.assign(new Error('UnknownError'), { name: 'NotFound', $metadata: { httpStatusCode: 404 } });
    expect(reasonOf(new Error('Object storage unavailable (check)', { cause: sdk }))).toBe('el bucket no existe');
    expect(reasonOf(new Error('Object storage unavailable (check)', { cause: refused }))).toBe('conexión rechazada');
    expect(reasonOf(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe('sin conexión');
    expect(reasonOf(new Error('NOAUTH Authentication required.'))).toBe('credenciales rechazadas');
    expect(reasonOf(new TypeError('secret://corto:contraseña@db'))).toBe('no responde como se espera');
  });
});

describe('health checks in the log', () => {
  let database: ProcessDatabase | undefined;
  let server: Started | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.drop();
  });

  it('write nothing at info level, while other requests are still logged', async () => {
    database = await processDatabase('sqlite');
    server = await startServer(database, { LOG_LEVEL: 'info' });
    const base = `http://127.0.0.1:${server.port}`;
    const before = server.output().length;
    for (let i = 0; i < 3; i += 1) {
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
      expect((await fetch(`${base}/api/health/ready`)).status).toBe(200);
    }
    expect((await fetch(`${base}/api/auth/session`)).status).toBe(200);
    const running = server;
    const lines = () =>
      running
        .output()
        .slice(before)
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; req?: { url: string }; reqId?: string });
    // The session call's lines show the request log is on.
    for (let i = 0; i < 50 && !lines().some((line) => line.msg === 'request completed'); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines().some((line) => line.req?.url === '/api/auth/session')).toBe(true);
    expect(lines().filter((line) => line.req?.url?.startsWith('/api/health'))).toEqual([]);
    // 'request completed' carries no URL: the only completions are the session call's.
    expect(lines().filter((line) => line.msg === 'request completed')).toHaveLength(1);
  }, 60_000);
});
