import { errorMessages } from '@common/messages';
import { afterAll, describe, expect, it } from 'vitest';
import type { Started } from '../../bench/lib/processes';
import { makeImage, sameOrigin } from '../test/test-users';
import { redirectLoad } from './redirect-load';
import { type ProcessDatabase, processDatabase, startServer, until, withDatabase } from './server-process';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

// PostgreSQL goes away for a few seconds under load: a relay between the server and the shared
// PostgreSQL is cut, then restored (the shared server itself is never touched). Meanwhile the
// server answers 503 in Spanish where it needs the database (its readiness check too, not its
// liveness check), keeps redirecting links it has cached, holds every click, and comes back by itself.

const WORKERS = 8;
const OUTAGE_MS = 3000;
const DEADLINE_MS = 1500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL cut off under load', () => {
  let database: ProcessDatabase;
  let proxy: TcpProxy;
  let server: Started;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await proxy?.close();
    await database?.drop();
  });

  it('answers 503 in Spanish (refused or silent), keeps redirecting cached links, loses no click, and recovers by itself', async () => {
    database = await processDatabase('postgres');
    const real = new URL(process.env.TEST_DATABASE_URL!);
    proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
    server = await startServer(database, {
      DATABASE_URL: database.postgresUrl({ host: '127.0.0.1', port: proxy.port }),
      // Short, so the partition below does not have to last long.
      API_DEADLINE_MS: String(DEADLINE_MS),
    });
    const base = `http://127.0.0.1:${server.port}`;

    // A user with two links: one visited (cached), one never visited.
    const form = new FormData();
    form.append('name', 'Corte');
    form.append('email', 'corte@corto.test');
    form.append('password', 'secreto-123');
    form.append('profileImage', new Blob([new Uint8Array(await makeImage())], { type: 'image/png' }), 'a.png');
    const registered = await fetch(`${base}/api/auth/register`, { method: 'POST', body: form });
    expect(registered.status).toBe(201);
    const cookie = registered.headers.getSetCookie()[0]!.split(';')[0]!;
    const create = async (title: string) => {
      const response = await fetch(`${base}/api/links`, {
        method: 'POST',
        headers: { cookie, ...sameOrigin, 'content-type': 'application/json' },
        body: JSON.stringify({ title, longUrl: `https://example.com/${title}` }),
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { link: { id: number; shortCode: string } }).link;
    };
    const cached = await create('cacheado');
    const cold = await create('frio');

    const load = redirectLoad(() => `${base}/${cached.shortCode}`, WORKERS);
    await until(() => load.tally.redirects >= 200, '200 redirects before the outage');

    await proxy.cut();
    const cutAt = Date.now();
    const beforeOutage = load.tally.redirects;
    // Every call that needs the database: a 503 with our envelope and Spanish message, not a 500, not a hang.
    const needsDatabase: Array<[string, RequestInit]> = [
      ['/api/links', { headers: { cookie } }],
      [`/api/links/${cached.id}/stats`, { headers: { cookie } }],
      ['/api/links', { method: 'POST', headers: { cookie, ...sameOrigin, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'x', longUrl: 'https://example.com' }) }],
      ['/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'corte@corto.test', password: 'secreto-123' }) }],
      [`/${cold.shortCode}`, { redirect: 'manual' }],
    ];
    const expect503 = async (what: string) => {
      await Promise.all(
        needsDatabase.map(async ([path, init]) => {
          // Bounded: a call that hangs fails here rather than holding the suite.
          const response = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(15_000) });
          const body = await response.text();
          expect(response.status, `${what}: ${path}: ${body}`).toBe(503);
          expect(JSON.parse(body)).toEqual({ error: { code: 'database_unavailable', message: errorMessages.databaseUnavailable } });
        }),
      );
    };
    await expect503('connection refused');
    // Liveness (what the load balancer and the container ask) stays up: the instance still serves
    // its cached redirects. Readiness says the database is away, and why.
    const health = async (reason: string) => {
      expect((await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5000) })).status).toBe(200);
      const ready = await fetch(`${base}/api/health/ready`, { signal: AbortSignal.timeout(5000) });
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { checks: Record<string, string> }).checks).toMatchObject({ database: reason, storage: 'ok' });
    };
    await health('conexión rechazada');
    const outageLeft = OUTAGE_MS - (Date.now() - cutAt);
    if (outageLeft > 0) await sleep(outageLeft);
    const duringOutage = load.tally.redirects - beforeOutage;
    expect(duringOutage, 'cached links kept redirecting while the database was away').toBeGreaterThan(50);

    await proxy.restore();
    const restoredAt = Date.now();
    await until(async () => (await fetch(`${base}/api/links`, { headers: { cookie } })).status === 200, 'the API back after the outage');
    const recoveryMs = Date.now() - restoredAt;

    // A partition: the connections stay open and nothing comes back, no reset, no error. The
    // API's deadline answers instead of letting the calls (and the next ones) hang.
    proxy.stall();
    const beforePartition = load.tally.redirects;
    await expect503('partition');
    await health('sin respuesta');
    const duringPartition = load.tally.redirects - beforePartition;
    expect(duringPartition, 'cached links kept redirecting during the partition').toBeGreaterThan(50);
    proxy.resume();
    await until(async () => (await fetch(`${base}/api/links`, { headers: { cookie } })).status === 200, 'the API back after the partition');
    const tally = await load.stop();
    expect(tally.statuses[500] ?? 0).toBe(0);

    // The clicks held during the outage are written once the writer's retry comes round.
    const rows = async () =>
      withDatabase(database, async ({ db }) =>
        Number((await db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).where('url_id', '=', cached.id).executeTakeFirstOrThrow()).n),
      );
    await until(async () => (await rows()) >= tally.redirects, `${tally.redirects} click rows`);
    const stored = await rows();
    console.log(
      `PostgreSQL outage of ${OUTAGE_MS} ms: ${duringOutage} redirects served from the cache during it, API back ${recoveryMs} ms after the database; ` +
        `partition: ${duringPartition} redirects served during it; ` +
        `${tally.redirects} redirects in all and ${stored} click rows`,
      tally.statuses,
    );
    expect(stored).toBeLessThanOrEqual(tally.redirects + WORKERS);
  }, 150_000);
});
