import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Visit } from '../clicks/enrich';
import { clientAddressReader } from '../http/client-address';
import { staticSecurityHeaders } from '../http/security-headers';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import type { CachedLink, LinkGate } from './link-cache';
import { createRedirectAnswer } from './redirect-answer';
import { createRedirectFastPath } from './redirect-fast-path';
import { agents, clickCount, insertLink, rollup } from './redirect.test-support';

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const headersOf = (response: Response) => {
  const headers = Object.fromEntries(response.headers);
  delete headers.date;
  return headers;
};

const gate = (state: Partial<LinkGate>): LinkGate => ({
  dateOnly: false,
  limitOnly: false,
  disabled: false,
  paused: false,
  expiresAt: Infinity,
  maxClicks: null,
  hasPassword: false,
  ...state,
});

describe('the redirect fast path in front of Fastify', () => {
  const cached = new Map<string, CachedLink>([
    ['abc123', { id: 7, url: 'https://example.org/destino?x=1' }],
    ['api', { id: 8, url: 'https://example.org/never' }],
    ['ñoquis', { id: 9, url: 'https://example.org/receta' }],
    ['hasta-manana', { id: 10, url: 'https://example.org/oferta', gate: gate({ dateOnly: true, expiresAt: Date.now() + 3_600_000 }) }],
    ['caducado', { id: 11, url: 'https://example.org/vieja', gate: gate({ dateOnly: true, expiresAt: Date.now() - 1 }) }],
    ['en-pausa', { id: 12, url: 'https://example.org/pausa', gate: gate({ paused: true }) }],
    ['limitado', { id: 13, url: 'https://example.org/pocos', gate: gate({ maxClicks: 10 }) }],
    ['con-clave', { id: 14, url: 'https://example.org/clave', gate: gate({ hasPassword: true }) }],
    ['dos-plazas', { id: 15, url: 'https://example.org/dos', gate: gate({ limitOnly: true, maxClicks: 5, expiresAt: Date.now() + 3_600_000 }) }],
  ]);
  const recorded: Visit[] = [];
  // Places at hand in memory: two for link 15.
  let places = 2;
  const fastPath = createRedirectFastPath(
    { peek: (code) => cached.get(code.toLowerCase()) },
    createRedirectAnswer({ clickWriter: { record: (visit) => recorded.push(visit) }, clientAddress: clientAddressReader(false) }),
    { takeNow: (id) => id === 15 && places-- > 0, countsWithClicks: true },
  );
  // Whatever the fast path leaves alone gets a 418 here, where Fastify would take it in the app.
  const server = createServer((request, response) => {
    if (!fastPath.handle(request, response)) response.writeHead(418).end();
  });
  let base = '';
  beforeAll(async () => {
    base = await listen(server);
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const get = (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, { redirect: 'manual', ...init });

  it('answers a cached code with the 302, no-store and the security headers, and records the visit', async () => {
    recorded.length = 0;
    const response = await get('/abc123', { headers: { 'user-agent': agents.iphone, referer: 'https://www.example.com/post' } });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://example.org/destino?x=1');
    expect(response.headers.get('cache-control')).toBe('no-store');
    for (const [name, value] of Object.entries(staticSecurityHeaders)) expect(response.headers.get(name)).toBe(value);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ urlId: 7, userAgent: agents.iphone, referrer: 'https://www.example.com/post' });
    expect(recorded[0]!.ip).toMatch(/127\.0\.0\.1$/);
  });

  it('takes an alias in any case and a query string, and does not record a HEAD', async () => {
    recorded.length = 0;
    expect((await get('/ABC123')).status).toBe(302);
    expect((await get('/abc123?utm_source=boletin')).status).toBe(302);
    const head = await get('/abc123', { method: 'HEAD' });
    expect(head.status).toBe(302);
    expect(head.headers.get('location')).toBe('https://example.org/destino?x=1');
    expect(recorded).toHaveLength(2);
  });

  it('decodes a percent-encoded path, and finds a non-ASCII alias in any case or spelling', async () => {
    recorded.length = 0;
    expect((await get('/abc%31%32%33')).status).toBe(302);
    for (const path of ['/%C3%91oquis', '/%C3%B1OQUIS', '/N%CC%83oquis']) {
      const response = await get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location')).toBe('https://example.org/receta');
    }
    expect(recorded.map((visit) => visit.urlId)).toEqual([7, 9, 9, 9]);
  });

  it('leaves to Fastify what it cannot answer from memory alone', async () => {
    recorded.length = 0;
    const leftAlone = [
      get('/zzzzzz'), // not cached: the route looks it up
      get('/api'), // reserved, even if something put it in the cache
      get('/abc123/'),
      get('/%61pi'), // reserved, however it is spelled
      get('/%C3%91oquis%21'), // decoded, not an alias: the route answers the 404 page
      get('/%E0%A4'), // not UTF-8
      get('/abc123', { method: 'POST' }),
      get('/abc123', { method: 'DELETE' }),
    ];
    for (const response of await Promise.all(leftAlone)) expect(response.status).toBe(418);
    expect(recorded).toHaveLength(0);
  });

  it('answers a link whose only state is a date still ahead, and leaves every other state to Fastify', async () => {
    recorded.length = 0;
    const dated = await get('/hasta-manana');
    expect(dated.status).toBe(302);
    expect(dated.headers.get('location')).toBe('https://example.org/oferta');
    for (const path of ['/caducado', '/en-pausa', '/limitado', '/con-clave']) expect((await get(path)).status, path).toBe(418);
    expect(recorded.map((visit) => visit.urlId)).toEqual([10]);
  });

  it('answers a person\'s visit of a limited link while a place is at hand, the visit marked as taking it', async () => {
    recorded.length = 0;
    // A bot or a HEAD takes no place: the route answers them.
    expect((await get('/dos-plazas', { headers: { 'user-agent': agents.googlebot } })).status).toBe(418);
    expect((await get('/dos-plazas', { method: 'HEAD', headers: { 'user-agent': agents.desktop } })).status).toBe(418);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get('/dos-plazas', { headers: { 'user-agent': agents.desktop } })).status);
    expect(statuses).toEqual([302, 302, 418]); // no place left here: the route decides
    expect(recorded.map((visit) => [visit.urlId, visit.limited])).toEqual([
      [15, true],
      [15, true],
    ]);
  });

  it('leaves everything to Fastify once stopped, as the server does when it starts closing', async () => {
    fastPath.stop();
    expect((await get('/abc123')).status).toBe(418);
  });
});

describe.each(testDialects)('redirects served by the fast path of a listening app on %s', (dialect) => {
  let t: TestApp;
  let proxied: TestApp;
  let base = '';
  let proxiedBase = '';
  beforeAll(async () => {
    t = await createTestApp(dialect);
    proxied = await createTestApp(dialect, { TRUST_PROXY: 'true' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    proxiedBase = await proxied.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
    await proxied.close();
  });

  // fetch's own agent ('node') is rightly taken for a bot, which would not be counted.
  const get = (url: string, headers: Record<string, string> = {}) =>
    fetch(url, { redirect: 'manual', headers: { 'user-agent': agents.desktop, ...headers } });

  it('gives the Fastify route\'s answer for the first visit and the same answer from memory after, each one a click', async () => {
    const link = await insertLink(t.database.db);
    const resolve = vi.spyOn(t.app.appContext.linkCache, 'resolve');
    const first = await get(`${base}/${link.shortUrl}`, { 'user-agent': agents.android });
    expect(resolve).toHaveBeenCalledTimes(1); // not cached yet: the route looked it up
    const second = await get(`${base}/${link.shortUrl}`, { 'user-agent': agents.android });
    expect(resolve).toHaveBeenCalledTimes(1); // answered before Fastify's router
    resolve.mockRestore();

    expect(first.status).toBe(302);
    expect(headersOf(second)).toEqual(headersOf(first));
    await t.app.appContext.clickWriter.flush();
    expect(await clickCount(t.database.db, link.id)).toBe(2);
    expect(await rollup(t.database.db, link.id, 'device')).toEqual({ mobile: 2 });
  });

  it('locates the forwarded address when TRUST_PROXY is on, and ignores it when off', async () => {
    const link = await insertLink(proxied.database.db);
    const other = await insertLink(t.database.db);
    for (let i = 0; i < 2; i++) {
      expect((await get(`${proxiedBase}/${link.shortUrl}`, { 'x-forwarded-for': '8.8.8.8' })).status).toBe(302);
      expect((await get(`${base}/${other.shortUrl}`, { 'x-forwarded-for': '8.8.8.8' })).status).toBe(302);
    }
    await proxied.app.appContext.clickWriter.flush();
    await t.app.appContext.clickWriter.flush();
    expect(await rollup(proxied.database.db, link.id, 'country')).toEqual({ US: 2 });
    expect(await rollup(t.database.db, other.id, 'country')).toEqual({ Unknown: 2 });
  });

  it('stops redirecting a deleted link at once, though it was answered from memory', async () => {
    const link = await insertLink(t.database.db);
    expect((await get(`${base}/${link.shortUrl}`)).status).toBe(302);
    expect((await get(`${base}/${link.shortUrl}`)).status).toBe(302);
    await t.database.db.deleteFrom('urls').where('id', '=', link.id).execute();
    await t.app.appContext.linkCache.forget({ shortCode: link.shortUrl, customUrl: link.customUrl });
    expect((await get(`${base}/${link.shortUrl}`)).status).toBe(404);
    await t.app.appContext.clickWriter.flush();
  });
});
