import { existsSync } from 'node:fs';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { linkMessages } from '@common/links/link-messages';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Started } from '../../bench/lib/processes';
import { insertLink } from '../redirect/redirect.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { makeImage, registerUser, sameOrigin } from '../test/test-users';
import { send } from './http-client';
import { type ProcessDatabase, processDatabase, startServer, until } from './server-process';

// Abuse of links against real listening servers: guessing short codes, one account creating
// links without end, and the files a crash leaves behind.

const HOUR_MS = 60 * 60 * 1000;

describe.each(testDialects)('guessing short codes against a listening server on %s', (dialect) => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp(dialect); // the default REDIRECT_MISS_LIMIT, 30 a minute
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t?.close());

  it('answers at most 30 unknown codes a minute to one client, then 429s, while a cached link keeps redirecting', async () => {
    const cached = await insertLink(t.database.db);
    const notCached = await insertLink(t.database.db);
    expect((await send(port, { method: 'GET', path: `/${cached.shortUrl}` })).status).toBe(302);

    const statuses: Record<number, number> = {};
    let retryAfter: string | string[] | undefined;
    // A guesser, ten requests at a time.
    for (let round = 0; round < 20; round += 1) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => send(port, { method: 'GET', path: `/g${round}x${i}` })),
      );
      for (const answer of answers) {
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        if (answer.status === 429) retryAfter = answer.headers['retry-after'];
      }
    }
    expect(statuses).toEqual({ 404: 30, 429: 170 });
    expect(Number(retryAfter)).toBeGreaterThan(0);

    // The same client: a cached link is answered (by the fast path), a lookup is not.
    const hit = await send(port, { method: 'GET', path: `/${cached.shortUrl}` });
    expect(hit.status).toBe(302);
    expect(hit.headers.location).toBe(cached.originalUrl);
    expect((await send(port, { method: 'GET', path: `/${notCached.shortUrl}` })).status).toBe(429);
  });
});

describe.each(testDialects)('one account creating links without end on %s', (dialect) => {
  let t: TestApp;
  afterEach(async () => t?.close());

  it('creates exactly LINKS_PER_HOUR of a concurrent burst and refuses the rest with 429 and Retry-After, leaving no file behind', async () => {
    t = await createTestApp(dialect, { LINKS_PER_HOUR: '20' });
    const { cookie, user } = await registerUser(t.app);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.address() as AddressInfo).port;
    const statuses: Record<number, number> = {};
    let refusal = { body: '', retryAfter: '' };
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < 60) {
          next += 1;
          const answer = await send(port, {
            method: 'POST',
            path: '/api/links',
            headers: { cookie, 'content-type': 'application/json', ...sameOrigin },
            body: JSON.stringify({ title: `Ráfaga ${next}`, longUrl: `https://example.com/${next}` }),
          });
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          if (answer.status === 429) refusal = { body: answer.body, retryAfter: String(answer.headers['retry-after']) };
        }
      }),
    );
    expect(statuses).toEqual({ 201: 20, 429: 40 });
    expect(JSON.parse(refusal.body)).toEqual({ error: { code: 'rate_limited', message: linkMessages.tooManyLinks } });
    expect(Number(refusal.retryAfter)).toBeGreaterThan(3500);
    const rows = await t.database.db.selectFrom('urls').select('qr').where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(20);
    expect((await readdir(path.join(t.config.dataDir, 'storage', 'qrs'))).sort()).toEqual(rows.map((row) => row.qr).sort());
  });
});

describe.each(testDialects)('files a crash left behind, at the start of a real process on %s', (dialect) => {
  let database: ProcessDatabase;
  let server: Started | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.drop();
  });

  it('are swept in the background once the server listens: old orphans and partial files go, the rest stays', async () => {
    database = await processDatabase(dialect);
    server = await startServer(database);
    const base = `http://127.0.0.1:${server.port}`;
    const form = new FormData();
    form.append('name', 'Ana');
    form.append('email', `barrido-${dialect}@corto.test`);
    form.append('password', 'secreto-123');
    form.append('profileImage', new Blob([new Uint8Array(await makeImage())], { type: 'image/png' }), 'a.png');
    const registered = await fetch(`${base}/api/auth/register`, { method: 'POST', body: form });
    const cookie = registered.headers.getSetCookie()[0]!.split(';')[0]!;
    const created = await fetch(`${base}/api/links`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', ...sameOrigin },
      body: JSON.stringify({ title: 'Con QR', longUrl: 'https://example.com/qr' }),
    });
    const { link } = (await created.json()) as { link: { qr: string } };
    expect(await server.stop('SIGKILL')).toBeNull();

    const qrs = path.join(database.dataDir, 'storage', 'qrs');
    const pictures = path.join(database.dataDir, 'storage', 'profile-pictures');
    await mkdir(qrs, { recursive: true });
    const file = async (folder: string, name: string, ageMs: number) => {
      const where = path.join(folder, name);
      if (!existsSync(where)) await writeFile(where, 'x');
      const when = (Date.now() - ageMs) / 1000;
      await utimes(where, when, when);
      return where;
    };
    const referenced = await file(qrs, path.basename(link.qr), 2 * HOUR_MS);
    const oldOrphan = await file(qrs, 'qr-perdid.png', 2 * HOUR_MS);
    const oldPartial = await file(pictures, 'dp-Ana-9.png.0a1b2c.partial', 2 * HOUR_MS);
    const freshOrphan = await file(qrs, 'qr-recien.png', 60_000);

    server = await startServer(database, { LOG_LEVEL: 'info' });
    await until(() => server!.output().includes('orphan files swept'), 'the sweep to log', { limitMs: 20_000 });
    const line = server.output().split('\n').find((text) => text.includes('orphan files swept'))!;
    expect(JSON.parse(line)).toMatchObject({ orphans: 1, partials: 1 });
    expect(existsSync(oldOrphan)).toBe(false);
    expect(existsSync(oldPartial)).toBe(false);
    expect(existsSync(referenced)).toBe(true);
    expect(existsSync(freshOrphan)).toBe(true);
    expect((await fetch(`${base.replace(/:\d+$/, `:${server.port}`)}${link.qr}`)).status).toBe(200);
  }, 60_000);
});
