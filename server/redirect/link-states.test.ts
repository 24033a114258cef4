import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { hashPassword } from '../auth/passwords';
import { type Config, loadConfig } from '../config';
import { type DatabaseHandle, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { createTestApp, openTestDatabase, type TestApp, testDialects } from '../test/test-app';
import { agents, clickCount, insertLink } from './redirect.test-support';
import { visitorMessages as m } from './visitor-pages';

// What a visitor of /{code} gets for a link with state, in the contract's order.

const limitUsed = async (t: TestApp, id: number) =>
  Number((await t.database.db.selectFrom('urls').select('limit_used').where('id', '=', id).executeTakeFirstOrThrow()).limit_used);

function expectVisitorPage(response: LightMyRequestResponse | { headers: Record<string, unknown>; body: string }, text: string) {
  expect(response.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['content-security-policy']).toContain("script-src 'self'");
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.body).toContain('lang="es"');
  expect(response.body).toContain(text);
  // The policy allows no inline script or style: the page has none.
  expect(response.body).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
}

describe.each(testDialects)('a visitor of a link with state on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const human = { 'user-agent': agents.desktop };
  const get = (code: string, headers: Record<string, string> = human) => t.app.inject({ method: 'GET', url: `/${code}`, headers });
  const post = (code: string, password: string, headers: Record<string, string> = {}, remoteAddress = '198.51.100.7') =>
    t.app.inject({
      method: 'POST',
      url: `/${code}`,
      remoteAddress,
      headers: { ...human, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams({ password }).toString(),
    });

  it('answers a paused link with the 404 page and counts nothing', async () => {
    const link = await insertLink(t.database.db, { state: { paused: 1, password_hash: 'x' } });
    const response = await get(link.shortUrl);
    expect(response.statusCode).toBe(404);
    expectVisitorPage(response, m.pausedTitle);
    // Its report link carries the address the visitor asked for, so the form opens filled in.
    expect(response.body).toMatch(new RegExp(`<a href="/denunciar\\?link=https?%3A%2F%2F[^"]+%2F${link.shortUrl}">${m.report}</a>`));
    await t.app.appContext.clickWriter.flush();
    expect(await clickCount(t.database.db, link.id)).toBe(0);
  });

  it('answers a link past its date with the 410 page, before asking for its password', async () => {
    const link = await insertLink(t.database.db, { state: { expires_at: Date.now() - 1000, password_hash: 'x' } });
    const response = await get(link.shortUrl);
    expect(response.statusCode).toBe(410);
    expectVisitorPage(response, m.expiredTitle);
    expect((await t.app.inject({ method: 'HEAD', url: `/${link.shortUrl}` })).statusCode).toBe(410);
  });

  it('redirects a link with a date still ahead', async () => {
    const link = await insertLink(t.database.db, { state: { expires_at: Date.now() + 60_000 } });
    expect((await get(link.shortUrl)).statusCode).toBe(302);
  });

  it('lets exactly max_clicks people through; bots, previews and HEAD never use the limit up', async () => {
    const link = await insertLink(t.database.db, { state: { max_clicks: 2 } });
    for (const agent of [agents.googlebot, agents.whatsapp]) expect((await get(link.shortUrl, { 'user-agent': agent })).statusCode).toBe(302);
    expect((await t.app.inject({ method: 'HEAD', url: `/${link.shortUrl}`, headers: human })).statusCode).toBe(302);
    expect(await limitUsed(t, link.id)).toBe(0);
    expect((await get(link.shortUrl)).statusCode).toBe(302);
    expect((await get(link.shortUrl)).statusCode).toBe(302);
    const third = await get(link.shortUrl);
    expect(third.statusCode).toBe(410);
    expectVisitorPage(third, m.expiredTitle);
    // Once spent, a bot or a HEAD is told so too.
    expect((await get(link.shortUrl, { 'user-agent': agents.googlebot })).statusCode).toBe(410);
    expect((await t.app.inject({ method: 'HEAD', url: `/${link.shortUrl}` })).statusCode).toBe(410);
    await t.app.appContext.clickWriter.flush();
    expect(await clickCount(t.database.db, link.id)).toBe(2);
  });

  it('shows a Spanish password form that works without JavaScript, and counts no click for it', async () => {
    const link = await insertLink(t.database.db, { state: { password_hash: await hashPassword('abre-sesamo') } });
    const response = await get(`${link.shortUrl}?password=abre-sesamo`);
    expect(response.statusCode).toBe(200);
    expectVisitorPage(response, m.passwordTitle);
    expect(response.body).toMatch(/<form method="post">/);
    expect(response.body).toMatch(/<input id="password" name="password" type="password"/);
    expect(response.body).toContain('<label for="password">Contraseña</label>');
    // Its look comes from a stylesheet of our own, which the policy allows.
    expect(response.body).toContain('<link rel="stylesheet" href="/assets/visitor-page.css">');
    const style = await t.app.inject({ method: 'GET', url: '/assets/visitor-page.css' });
    expect(style.statusCode).toBe(200);
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    // Its form may be redirected to the destination, wherever that is.
    expect(response.headers['content-security-policy']).toContain("form-action 'self' http: https:");
    expect((await t.app.inject({ method: 'HEAD', url: `/${link.shortUrl}` })).statusCode).toBe(200);
    await t.app.appContext.clickWriter.flush();
    expect(await clickCount(t.database.db, link.id)).toBe(0);
  });

  it('unlocks with the right password (302, the click recorded then) and refuses a wrong one (401, the form again)', async () => {
    const link = await insertLink(t.database.db, { state: { password_hash: await hashPassword('abre-sesamo') } });
    const wrong = await post(link.shortUrl, 'otra-cosa');
    expect(wrong.statusCode).toBe(401);
    expectVisitorPage(wrong, m.passwordWrong);
    expect(wrong.body).toContain('<form method="post">');
    await t.app.appContext.clickWriter.flush();
    expect(await clickCount(t.database.db, link.id)).toBe(0);

    const right = await post(link.shortUrl, 'abre-sesamo', { origin: t.config.publicBaseUrl });
    expect(right.statusCode).toBe(302);
    expect(right.headers.location).toBe(link.originalUrl);
    expect(right.headers['cache-control']).toBe('no-store');
    await t.app.appContext.clickWriter.flush();
    expect(await clickCount(t.database.db, link.id)).toBe(1);

    // A bot never unlocks, and a form posted from another site is refused.
    const bot = await post(link.shortUrl, 'abre-sesamo', { 'user-agent': agents.googlebot });
    expect(bot.statusCode).toBe(200);
    expect(bot.headers.location).toBeUndefined();
    // The password only comes in the form: JSON or no body is a wrong password, not a server error.
    for (const payload of [{ password: 'abre-sesamo' }, undefined]) {
      const odd = await t.app.inject({ method: 'POST', url: `/${link.shortUrl}`, remoteAddress: '198.51.100.8', headers: human, ...(payload ? { payload } : {}) });
      expect(odd.statusCode).toBe(401);
    }
    const foreign = await post(link.shortUrl, 'abre-sesamo', { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expectVisitorPage(foreign, m.foreignFormTitle);
  });

  it('takes 5 wrong passwords per client and link in 15 minutes, then answers 429 even to the right one', async () => {
    const hash = await hashPassword('abre-sesamo');
    const link = await insertLink(t.database.db, { state: { password_hash: hash } });
    const other = await insertLink(t.database.db, { state: { password_hash: hash } });
    for (let i = 0; i < 5; i++) expect((await post(link.shortUrl, `mal-${i}`, {}, '203.0.113.9')).statusCode).toBe(401);
    const blocked = await post(link.shortUrl, 'abre-sesamo', {}, '203.0.113.9');
    expect(blocked.statusCode).toBe(429);
    expectVisitorPage(blocked, m.tooManyTriesTitle);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    // Another client, or another link, is not held back.
    expect((await post(link.shortUrl, 'abre-sesamo', {}, '203.0.113.10')).statusCode).toBe(302);
    expect((await post(other.shortUrl, 'abre-sesamo', {}, '203.0.113.9')).statusCode).toBe(302);
  });

  it('counts an unlock against a click limit', async () => {
    const link = await insertLink(t.database.db, { state: { max_clicks: 1, password_hash: await hashPassword('abre-sesamo') } });
    expect((await get(link.shortUrl)).statusCode).toBe(200);
    expect((await post(link.shortUrl, 'abre-sesamo')).statusCode).toBe(302);
    expect((await get(link.shortUrl)).statusCode).toBe(410);
    expect((await post(link.shortUrl, 'abre-sesamo')).statusCode).toBe(410);
  });

  it('sends a form post for a link without a password to the address itself', async () => {
    const link = await insertLink(t.database.db);
    const response = await post(link.shortUrl, 'x');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/${link.shortUrl}`);
    expect((await post('zz-no-existe', 'x')).statusCode).toBe(404);
  });
});

describe.each(testDialects)('the click limit under load on %s', (dialect) => {
  // Two instances over one database, each on a real socket, as behind a load balancer.
  let one: TestApp;
  let two: FastifyInstance;
  const bases: string[] = [];
  beforeAll(async () => {
    one = await createTestApp(dialect);
    two = await buildApp({ config: one.config, database: one.database });
    for (const app of [one.app, two]) {
      await app.listen({ port: 0, host: '127.0.0.1' });
      bases.push(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
    }
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('lets exactly 10 of 50 concurrent visitors through a limit of 10, across two instances', async () => {
    const link = await insertLink(one.database.db, { state: { max_clicks: 10 } });
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${bases[i % 2]}/${link.shortUrl}`, { redirect: 'manual', headers: { 'user-agent': agents.android } }).then(async (response) => {
          await response.arrayBuffer();
          return response.status;
        }),
      ),
    );
    expect(statuses.filter((status) => status === 302)).toHaveLength(10);
    expect(statuses.filter((status) => status === 410)).toHaveLength(40);
    // SQLite writes the places taken with their clicks; PostgreSQL has claimed them already.
    await one.app.appContext.clickWriter.flush();
    await two.appContext.clickWriter.flush();
    expect(await limitUsed(one, link.id)).toBe(10);
    expect(await clickCount(one.database.db, link.id)).toBe(10);
  });

  it('answers a limited link from memory while a place is at hand, each visit one place and one click', async () => {
    const link = await insertLink(one.database.db, { state: { max_clicks: 30, expires_at: Date.now() + 60_000 } });
    const take = vi.spyOn(one.app.appContext.clickLimits, 'take');
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const response = await fetch(`${bases[0]}/${link.shortUrl}`, { redirect: 'manual', headers: { 'user-agent': agents.iphone } });
      statuses.push(response.status);
    }
    // The Fastify route (take) only for the first visit and the two refused; PostgreSQL's route
    // claims each block, a few places at a time as the last ones near.
    if (dialect === 'sqlite') expect(take).toHaveBeenCalledTimes(3);
    else expect(take.mock.calls.length).toBeLessThan(25);
    take.mockRestore();
    expect(statuses.filter((status) => status === 302)).toHaveLength(30);
    expect(statuses.slice(30)).toEqual([410, 410]);
    await one.app.appContext.clickWriter.flush();
    expect(await limitUsed(one, link.id)).toBe(30);
    expect(await clickCount(one.database.db, link.id)).toBe(30);
  });
});

describe.each(testDialects)('the places of a click limit on %s', (dialect) => {
  const human = { 'user-agent': agents.desktop };

  it('resumes exactly after a restart: the places taken before it stay taken', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'corto-limit-'));
    const { database, drop } = await openTestDatabase(dialect, dataDir);
    await migrateToLatest(database.db);
    const config: Config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), webDir: undefined };
    const link = await insertLink(database.db, { state: { max_clicks: 5 } });
    const visit = (app: FastifyInstance) => app.inject({ method: 'GET', url: `/${link.shortUrl}`, headers: human }).then((r) => r.statusCode);
    let reopened: DatabaseHandle | undefined;
    try {
      const first = await buildApp({ config, database });
      for (let i = 0; i < 3; i++) expect(await visit(first)).toBe(302);
      await first.close(); // drains the clicks, gives back what it held
      await database.close();
      reopened = openDatabase(database.target ?? { kind: 'sqlite', dataDir });
      const second = await buildApp({ config, database: reopened });
      expect([await visit(second), await visit(second), await visit(second)]).toEqual([302, 302, 410]);
      await second.close();
      const row = await reopened.db.selectFrom('urls').select(['limit_used', 'click_count']).where('id', '=', link.id).executeTakeFirstOrThrow();
      expect([Number(row.limit_used), Number(row.click_count)]).toEqual([5, 5]);
    } finally {
      await reopened?.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    }
   }, 60_000); // two apps built and closed one after the other

  it.runIf(dialect === 'postgres')('gives back the places an instance holds unused, so another instance can use them', async () => {
    const one = await createTestApp(dialect);
    const two = await buildApp({ config: one.config, database: one.database });
    try {
      // 16 places: a block is at most an eighth of what is left, here 2.
      const link = await insertLink(one.database.db, { state: { max_clicks: 16 } });
      const visit = (app: FastifyInstance) => app.inject({ method: 'GET', url: `/${link.shortUrl}`, headers: human }).then((r) => r.statusCode);
      expect(await visit(one.app)).toBe(302);
      expect(await limitUsed(one, link.id)).toBe(2); // one used, one held by the first instance
      const second: number[] = [];
      for (let i = 0; i < 15; i++) second.push(await visit(two));
      expect(second.filter((status) => status === 302)).toHaveLength(14);
      expect(second.at(-1)).toBe(410); // the last place is the first instance's, for now
      await new Promise((resolve) => setTimeout(resolve, 2100)); // held past a second: given back
      expect(await limitUsed(one, link.id)).toBe(15);
      expect([await visit(two), await visit(two), await visit(one.app)]).toEqual([302, 410, 410]);
      expect(await limitUsed(one, link.id)).toBe(16);
    } finally {
      await two.close();
      await one.close();
    }
  }, 60_000);
});
