import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Started } from '../../bench/lib/processes';
import { hasHaproxy, type Haproxy, startHaproxy } from '../test/haproxy';
import { startTestS3, type TestS3 } from '../test/s3-server';
import { makeImage, sameOrigin } from '../test/test-users';
import { type ProcessDatabase, processDatabase, startServer, until, withDatabase } from './server-process';
import { redisReachable, testRedisUrl } from '../test/redis';

// Two Corto processes on loopback behind Debian's HAProxy, sharing PostgreSQL, Redis and an S3
// server: what a self-hoster running several instances relies on.

const hasRedis = await redisReachable(testRedisUrl);
const missing = [
  process.env.TEST_DATABASE_URL ? undefined : 'TEST_DATABASE_URL is unset (PostgreSQL is needed to share a database)',
  hasHaproxy ? undefined : 'haproxy is not installed (apt-get install -y haproxy)',
  hasRedis ? undefined : `no Redis at ${testRedisUrl}`,
].filter(Boolean);
if (missing.length > 0) console.warn(`two-instances.test skipped: ${missing.join('; ')}`);

const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const someClient = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

describe.skipIf(missing.length > 0)('two instances behind HAProxy, on PostgreSQL, Redis and S3', () => {
  let database: ProcessDatabase;
  let s3: TestS3;
  let haproxy: Haproxy;
  const instances: Record<'a' | 'b', Started> = {} as Record<'a' | 'b', Started>;
  const folders: string[] = [];
  const direct = (name: 'a' | 'b') => `http://127.0.0.1:${instances[name].port}`;

  beforeAll(async () => {
    database = await processDatabase('postgres');
    s3 = await startTestS3();
    const env = () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'corto-instance-'));
      folders.push(dataDir);
      return {
        DATA_DIR: dataDir,
        REDIS_URL: testRedisUrl,
        TRUST_PROXY: 'true',
        AUTH_RATE_LIMIT_IP: '6',
        ...s3.env(),
      };
    };
    // Both at once, on a fresh schema: the migrations run once, under Kysely's advisory lock.
    [instances.a, instances.b] = await Promise.all([startServer(database, env()), startServer(database, env())]);
    haproxy = await startHaproxy({ corto1: instances.a.port, corto2: instances.b.port });
  }, 120_000);
  afterAll(async () => {
    await haproxy?.stop();
    await Promise.all(Object.values(instances).map((instance) => instance.stop()));
    await s3?.close();
    await database?.drop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  let cookie = '';
  let pictureAddress = '';
  const register = async (base: string) => {
    const form = new FormData();
    form.append('name', 'Ana Torres');
    form.append('email', `ana-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@corto.test`);
    form.append('password', 'secreto-123');
    form.append('profileImage', new Blob([new Uint8Array(await makeImage())], { type: 'image/png' }), 'ana.png');
    const response = await fetch(`${base}/api/auth/register`, { method: 'POST', body: form, headers: { ...sameOrigin, 'x-forwarded-for': someClient() } });
    expect(response.status).toBe(201);
    cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    pictureAddress = ((await response.json()) as { user: { profileImage: string } }).user.profileImage;
  };
  const json = { 'content-type': 'application/json' };
  const createLink = async (base: string, longUrl: string) => {
    const response = await fetch(`${base}/api/links`, {
      method: 'POST',
      headers: { cookie, ...sameOrigin, ...json },
      body: JSON.stringify({ title: 'Compartido', longUrl }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { link: { id: number; shortCode: string } }).link;
  };
  /** Which instance answered through the proxy: a is its corto1, b its corto2. */
  const inProxy: Record<string, string> = { corto1: 'a', corto2: 'b' };
  const servedBy = (response: Response) => inProxy[response.headers.get('x-served-by') ?? ''] ?? '?';
  const visit = (base: string, code: string) => fetch(`${base}/${code}`, { redirect: 'manual', headers: { 'user-agent': browser } });

  it('a link created through one instance redirects through the other, and the session works on both', async () => {
    await register(direct('a'));
    const link = await createLink(direct('a'), 'https://example.com/uno');
    const response = await visit(direct('b'), link.shortCode);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://example.com/uno');
    const session = await fetch(`${direct('b')}/api/auth/session`, { headers: { cookie } });
    expect(((await session.json()) as { user: { name: string } | null }).user?.name).toBe('Ana Torres');
  });

  it('a picture uploaded through one instance is served by the other', async () => {
    const fromA = await fetch(`${direct('a')}${pictureAddress}`);
    const fromB = await fetch(`${direct('b')}${pictureAddress}`);
    expect(fromB.status).toBe(200);
    expect(fromB.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await fromB.arrayBuffer()).equals(Buffer.from(await fromA.arrayBuffer()))).toBe(true);
  });

  it('an edit or a delete through one instance is seen by the other at once, though it had the link cached', async () => {
    const link = await createLink(direct('a'), 'https://example.com/antes');
    // Both have it cached now.
    for (const name of ['a', 'b'] as const) expect((await visit(direct(name), link.shortCode)).headers.get('location')).toBe('https://example.com/antes');
    const edit = await fetch(`${direct('a')}/api/links/${link.id}`, {
      method: 'PATCH',
      headers: { cookie, ...sameOrigin, ...json },
      body: JSON.stringify({ longUrl: 'https://example.com/despues' }),
    });
    expect(edit.status).toBe(200);
    await until(async () => (await visit(direct('b'), link.shortCode)).headers.get('location') === 'https://example.com/despues', 'B hears of the edit', { limitMs: 1000, everyMs: 10 });
    const removed = await fetch(`${direct('b')}/api/links/${link.id}`, { method: 'DELETE', headers: { cookie, ...sameOrigin } });
    expect(removed.status).toBe(204);
    await until(async () => (await visit(direct('a'), link.shortCode)).status === 404, 'A hears of the delete', { limitMs: 1000, everyMs: 10 });
  });

  it('a rate limit counts across both instances behind the proxy', async () => {
    const client = someClient();
    const served = new Set<string>();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const response = await fetch(`${haproxy.url}/api/auth/login`, {
        method: 'POST',
        headers: { ...json, ...sameOrigin, 'x-forwarded-for': client },
        body: JSON.stringify({ email: `nadie-${i}-${client}@corto.test`, password: 'incorrecta-1' }),
      });
      statuses.push(response.status);
      served.add(servedBy(response));
    }
    expect(served).toEqual(new Set(['a', 'b']));
    // Six allowed in all (AUTH_RATE_LIMIT_IP), not six on each.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429]);
  });

  it('clicks through both instances add up exactly', async () => {
    const link = await createLink(haproxy.url, 'https://example.com/clics');
    const served: Record<string, number> = {};
    const total = 300;
    await Promise.all(
      Array.from({ length: 6 }, async (_, worker) => {
        for (let i = worker; i < total; i += 6) {
          const response = await visit(haproxy.url, link.shortCode);
          expect(response.status).toBe(302);
          const by = servedBy(response);
          served[by] = (served[by] ?? 0) + 1;
        }
      }),
    );
    expect(Object.keys(served).sort()).toEqual(['a', 'b']);
    const count = () =>
      withDatabase(database, async ({ db }) => Number((await db.selectFrom('clicks').select(sql<string>`count(*)`.as('n')).where('url_id', '=', link.id).executeTakeFirstOrThrow()).n));
    await until(async () => (await count()) >= total, `${total} clicks written`, { limitMs: 15_000 });
    expect(await count()).toBe(total);
  });

  it('killing one instance mid-load loses no click the other answered, and the health check takes it out', async () => {
    const link = await createLink(haproxy.url, 'https://example.com/caida');
    const answered: Record<string, number> = {};
    let stop = false;
    let killed = false;
    const load = Promise.all(
      Array.from({ length: 6 }, async () => {
        while (!stop) {
          const response = await visit(haproxy.url, link.shortCode).catch(() => undefined);
          if (response?.status !== 302) continue;
          const by = servedBy(response);
          answered[by] = (answered[by] ?? 0) + 1;
          if (!killed && (answered.a ?? 0) > 50) {
            killed = true;
            instances.a.child.kill('SIGKILL');
          }
        }
      }),
    );
    await until(() => killed, 'instance a killed under load');
    await until(async () => (await haproxy.serverStatus()).corto1?.startsWith('DOWN') ?? false, 'HAProxy marks a down', { limitMs: 10_000 });
    const afterDownFromB = answered.b ?? 0;
    await until(() => (answered.b ?? 0) > afterDownFromB + 100, 'b answers on alone');
    stop = true;
    await load;
    expect((await haproxy.serverStatus()).corto2).toBe('UP');

    const count = () =>
      withDatabase(database, async ({ db }) => Number((await db.selectFrom('clicks').select(sql<string>`count(*)`.as('n')).where('url_id', '=', link.id).executeTakeFirstOrThrow()).n));
    const fromB = answered.b ?? 0;
    await until(async () => (await count()) >= fromB, `the ${fromB} clicks b answered written`, { limitMs: 15_000 });
    // Every click b answered is there; of a's, those it wrote before it died (never more than it answered).
    expect(await count()).toBeLessThanOrEqual(fromB + (answered.a ?? 0));
  }, 120_000);
});
