import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/passwords';
import { domainAddressKey } from '../domains/domain-keys';
import { createTestApp, createTwoInstancesOnRedis, type TestApp, testDialects } from '../test/test-app';
import { redisReachable, testRedisUrl as redisUrl } from '../test/redis';
import { agents, clickCount, insertDomain, insertLink, moveLinkToDomain, rawRequest, type RawAnswer, requestOn } from './redirect.test-support';
import { visitorMessages as m } from './visitor-pages';

// The redirect picks the domain from the Host header (issue 31): a domain's addresses answer on
// it alone, a domain serves its visitors' pages and nothing else, a host nobody added nothing.

const INSTANCE = 'corto.example';
const A = 'go.empresa-a.example';
const B = 'go.empresa-b.example';

const isUnknownHostPage = (answer: RawAnswer) => {
  expect(answer.status).toBe(404);
  expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(answer.body).toContain(m.unknownHostTitle);
  // Nothing about what answers: no name, no stylesheet, no app, no link.
  expect(answer.body).not.toMatch(/corto|<script|<link|href=/i);
};

const isDomainNotFoundPage = (answer: RawAnswer) => {
  expect(answer.status).toBe(404);
  expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.body).toContain(m.notFoundTitle);
  expect(answer.body).not.toContain('<script');
};

describe.each(testDialects)('the redirect by Host on %s', (dialect) => {
  let t: TestApp;
  let origin: string;
  let port: number;
  const ids = { a: 0, b: 0, pending: 0, off: 0 };
  const links = {} as Record<'onA' | 'onB' | 'onInstance' | 'onOff' | 'locked', { id: number; shortUrl: string; originalUrl: string }>;

  beforeAll(async () => {
    // No throttle on misses: this file asks for many unknown addresses from one client.
    t = await createTestApp(dialect, { PUBLIC_BASE_URL: `https://${INSTANCE}`, REDIRECT_MISS_LIMIT: '0' });
    const db = t.database.db;
    ids.a = await insertDomain(db, { hostname: A });
    ids.b = await insertDomain(db, { hostname: B, rootRedirect: 'https://empresa-b.example/', notFoundRedirect: 'https://empresa-b.example/no-existe' });
    ids.pending = await insertDomain(db, { hostname: 'pendiente.example', verified: false });
    ids.off = await insertDomain(db, { hostname: 'apagado.example', disabled: true });
    // The same alias on A, on B and on the instance: three links.
    links.onA = await insertLink(db, { customUrl: 'Oferta', originalUrl: 'https://a.example/oferta', domainId: ids.a });
    links.onB = await insertLink(db, { customUrl: 'oferta', originalUrl: 'https://b.example/oferta', domainId: ids.b });
    links.onInstance = await insertLink(db, { customUrl: 'oferta', originalUrl: 'https://instancia.example/oferta' });
    links.onOff = await insertLink(db, { customUrl: 'cerrado', originalUrl: 'https://apagado.example/x', domainId: ids.off });
    links.locked = await insertLink(db, {
      customUrl: 'secreto',
      originalUrl: 'https://a.example/secreto',
      domainId: ids.a,
      state: { password_hash: await hashPassword('abre-sesamo') },
    });
    await t.app.appContext.hostedDomains.load();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    origin = `http://127.0.0.1:${port}`;
  });
  afterAll(() => t.close());

  const on = (host: string, path: string, init?: Parameters<typeof requestOn>[3]) => requestOn(origin, host, path, init);

  /**
   * Two visits: the first (a cache miss) is Fastify's route, the second the fast path's when the
   * first found a link. Both must give the same answer; the second is returned.
   */
  const twice = async (host: string, path: string) => {
    const first = await on(host, path);
    const before = await fastPathRedirects();
    const second = await on(host, path);
    expect([second.status, second.headers.location], `${host}${path}`).toEqual([first.status, first.headers.location]);
    // A plain link found by the first visit is the fast path's on the second (B's misses are not links).
    if (second.status === 302 && !String(second.headers.location).startsWith('https://empresa-b.example/')) expect(await fastPathRedirects(), `${host}${path}`).toBe(before + 1);
    return second;
  };
  /** The redirects the fast path answered so far (the instance's /metrics, open in tests). */
  const fastPathRedirects = async () => {
    const line = (await on(INSTANCE, '/metrics')).body.split('\n').find((candidate) => candidate.startsWith('corto_redirects_cached_total '));
    return Number(line?.split(' ')[1]);
  };

  it("answers a domain's addresses on that domain only, and the instance's on the instance only", async () => {
    const onA = await twice(A, `/${links.onA.shortUrl}`);
    expect(onA.status).toBe(302);
    expect(onA.headers.location).toBe('https://a.example/oferta');
    // Served from memory under the domain's key, never under the bare code.
    expect(t.app.appContext.linkCache.peek(domainAddressKey(ids.a, links.onA.shortUrl))).toBeDefined();
    expect(t.app.appContext.linkCache.peek(links.onA.shortUrl)).toBeUndefined();

    isDomainNotFoundPage(await twice(A, `/${links.onInstance.shortUrl}`));
    // B has a notFoundRedirect: A's code is a miss there, sent where B says.
    const onB = await twice(B, `/${links.onA.shortUrl}`);
    expect([onB.status, onB.headers.location]).toEqual([302, 'https://empresa-b.example/no-existe']);
    const onInstance = await twice(INSTANCE, `/${links.onA.shortUrl}`);
    expect(onInstance.status).toBe(404);
    expect(onInstance.body).toContain('Enlace no encontrado');
    expect((await twice(INSTANCE, `/${links.onInstance.shortUrl}`)).headers.location).toBe('https://instancia.example/oferta');
  });

  it('sends the same alias on two domains and on the instance to three destinations', async () => {
    expect((await twice(A, '/oferta')).headers.location).toBe('https://a.example/oferta');
    expect((await twice(A, '/OFERTA')).headers.location).toBe('https://a.example/oferta');
    expect((await twice(B, '/oferta')).headers.location).toBe('https://b.example/oferta');
    expect((await twice(INSTANCE, '/oferta')).headers.location).toBe('https://instancia.example/oferta');
  });

  it('reads the Host in any spelling: port, upper case, final dot', async () => {
    for (const host of ['GO.Empresa-A.example:8443', `${A}.`, 'Go.Empresa-A.Example.:443', `${A}:80`]) {
      const answer = await twice(host, '/oferta');
      expect([answer.status, answer.headers.location], host).toEqual([302, 'https://a.example/oferta']);
    }
    for (const host of [`${INSTANCE.toUpperCase()}:443`, `${INSTANCE}.`]) {
      expect((await twice(host, '/oferta')).headers.location, host).toBe('https://instancia.example/oferta');
    }
  });

  it('takes an IP literal and an absent Host (HTTP/1.0) for the instance, without a 5xx', async () => {
    for (const host of ['[::1]:3000', '127.0.0.1', '[::1]']) {
      expect((await twice(host, '/oferta')).headers.location, host).toBe('https://instancia.example/oferta');
    }
    for (let i = 0; i < 2; i++) {
      const found = await rawRequest(port, `GET /${links.onInstance.shortUrl} HTTP/1.0\r\n\r\n`);
      expect(found.statusLine).toMatch(/^HTTP\/1\.[01] 302/);
      expect(found.raw).toContain('location: https://instancia.example/oferta');
      // A domain's code is not the instance's.
      const missing = await rawRequest(port, `GET /${links.onA.shortUrl} HTTP/1.0\r\n\r\n`);
      expect(missing.statusLine).toMatch(/^HTTP\/1\.[01] 404/);
    }
    // An empty Host is the instance too.
    expect((await rawRequest(port, 'GET /oferta HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n')).statusLine).toMatch(/ 302/);
  });

  it('answers a host nobody added, and a domain not verified yet, with a 404 page that says nothing', async () => {
    for (const host of ['otro.example', 'pendiente.example', `${A}.otro.example`]) {
      for (const path of ['/', `/${links.onA.shortUrl}`, '/oferta', '/dashboard', '/api/health', '/api/links', '/assets/visitor-page.css', '/metrics']) {
        isUnknownHostPage(await on(host, path));
      }
      isUnknownHostPage(await on(host, '/api/links', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
    }
    // Caddy's certificate question still reaches its route (asked with the instance's name in
    // practice): whatever that answers, it is not the gate's page.
    const tls = await on('otro.example', '/api/domains/tls-allowed?domain=otro.example');
    expect(tls.body).not.toContain(m.unknownHostTitle);
  });

  it("serves a domain its visitors' pages only: never the app, the API, the files or the metrics", async () => {
    for (const path of ['/dashboard', '/api/links', '/api/health', '/storage/x', '/storage/qr/x.png', '/metrics', '/assets/index.js', '/%61pi', '/docs', '/a/b', '/denunciar']) {
      isDomainNotFoundPage(await on(A, path));
    }
    isDomainNotFoundPage(await on(A, '/api/links', { method: 'POST', headers: { 'content-type': 'application/json', origin: `https://${A}` }, body: '{}' }));
    isDomainNotFoundPage(await on(A, '/oferta', { method: 'DELETE' }));
    // The pages' own stylesheet is theirs.
    const style = await on(A, '/assets/visitor-page.css');
    expect(style.status).toBe(200);
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    // The instance still has its API.
    expect((await on(INSTANCE, '/api/health')).status).toBe(200);
  });

  it("answers a domain's root with its rootRedirect, or a plain page of its own", async () => {
    const plain = await on(A, '/');
    expect(plain.status).toBe(200);
    expect(plain.body).toContain(m.domainRootText);
    expect(plain.body).not.toContain('<script');
    expect((await on(A, '/', { method: 'HEAD' })).status).toBe(200);
    const redirected = await on(B, '/?utm=x');
    expect([redirected.status, redirected.headers.location]).toEqual([302, 'https://empresa-b.example/']);
    expect(redirected.headers['cache-control']).toBe('no-store');
  });

  it("answers an unknown code with the domain's notFoundRedirect, or its 404 page", async () => {
    isDomainNotFoundPage(await twice(A, '/no-existe'));
    // A path that cannot be decoded is refused by the router before any hook, on every host alike.
    expect((await on(A, '/%ZZ')).status).toBe(400);
    const redirected = await twice(B, '/no-existe');
    expect([redirected.status, redirected.headers.location]).toEqual([302, 'https://empresa-b.example/no-existe']);
  });

  it('answers 410 for the addresses and the root of a domain an operator disabled', async () => {
    for (const path of ['/cerrado', `/${links.onOff.shortUrl}`, '/cualquiera', '/']) {
      const answer = await twice('apagado.example', path);
      expect(answer.status, path).toBe(410);
      expect(answer.body).toContain(m.disabledTitle);
    }
    isDomainNotFoundPage(await on('apagado.example', '/dashboard'));
    // Its links are disabled wherever they are looked up from (the lookup joins the domain).
    const { findLinkByCode } = await import('./link-lookup');
    expect((await findLinkByCode(t.database.db, domainAddressKey(ids.off, 'cerrado')))?.gate?.disabled).toBe(true);
  });

  it('shows a protected link\'s form on the domain, which posts there and unlocks', async () => {
    const form = await twice(A, '/secreto');
    expect(form.status).toBe(200);
    expect(form.body).toContain(m.passwordTitle);
    // Posted to the address it was shown at (the domain); home stays there; the report form is the instance's.
    expect(form.body).toContain('<form method="post">');
    expect(form.body).toContain('<a href="/">');
    expect(form.body).toContain(`href="https://${INSTANCE}/denunciar?link=${encodeURIComponent(`https://${A}/secreto`)}"`);

    const post = (password: string, originHeader: string) =>
      on(A, '/secreto', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: originHeader, 'sec-fetch-site': 'same-origin', 'user-agent': agents.iphone },
        body: new URLSearchParams({ password }).toString(),
      });
    const wrong = await post('otra', `https://${A}`);
    expect(wrong.status).toBe(401);
    const right = await post('abre-sesamo', `https://${A}`);
    expect([right.status, right.headers.location]).toEqual([302, 'https://a.example/secreto']);
    // Another site's page (B's included) cannot post it.
    expect((await post('abre-sesamo', 'https://evil.example')).status).toBe(403);
    expect((await post('abre-sesamo', `https://${B}`)).status).toBe(403);
    await t.app.appContext.clickWriter.flush();
    expect(await clickCount(t.database.db, links.locked.id)).toBe(1);
    // Not on the instance's host, nor on B.
    expect((await on(INSTANCE, '/secreto')).status).toBe(404);
  });
});

const hasRedis = await redisReachable(redisUrl);
if (!hasRedis) console.warn(`domain-redirect.test: no Redis at ${redisUrl}; cross-instance tests skipped`);

describe.runIf(hasRedis).each(testDialects)("a domain's changes on every instance on %s", (dialect) => {
  // Two instances on one Redis, each with its own database standing for the shared one: every
  // row is written in both.
  let one: TestApp;
  let two: TestApp;
  let both: TestApp[];
  let domainId = 0;
  beforeAll(async () => {
    [one, two] = await createTwoInstancesOnRedis(dialect, redisUrl);
    both = [one, two];
    const ids = await Promise.all(both.map((t) => insertDomain(t.database.db, { hostname: A })));
    expect(ids[0]).toBe(ids[1]);
    domainId = ids[0]!;
    for (const t of both) await t.app.appContext.hostedDomains.load();
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
  });

  const visitTwo = (path: string) => two.app.inject({ method: 'GET', url: path, headers: { host: A } });

  it('forgets on the other instance a link edited away, under its domain key', async () => {
    const code = `d${Date.now().toString(36).slice(-5)}`;
    const rows = await Promise.all(both.map((t) => insertLink(t.database.db, { shortUrl: code, customUrl: `Alias-${code}`, domainId })));
    expect((await visitTwo(`/alias-${code}`)).statusCode).toBe(302);
    const key = domainAddressKey(domainId, `alias-${code}`);
    expect(two.app.appContext.linkCache.peek(key)).toBeDefined();

    // The link moved back to the instance's host, as an edit would; only instance one is told.
    await Promise.all(both.map((t, i) => moveLinkToDomain(t.database.db, rows[i]!.id, null)));
    await one.app.appContext.linkCache.forget({ domainId, shortCode: code, customUrl: `Alias-${code}` });
    await expect.poll(() => two.app.appContext.linkCache.peek(key), { timeout: 2000 }).toBeUndefined();
    expect((await visitTwo(`/alias-${code}`)).statusCode).toBe(404);
    expect((await two.app.inject({ method: 'GET', url: `/alias-${code}` })).statusCode).toBe(302);
  });

  it('answers 410 on the other instance at once for a domain disabled on one', async () => {
    const code = `e${Date.now().toString(36).slice(-5)}`;
    await Promise.all(both.map((t) => insertLink(t.database.db, { shortUrl: code, originalUrl: 'https://a.example/x', domainId })));
    expect((await visitTwo(`/${code}`)).statusCode).toBe(302);

    const now = Date.now();
    await Promise.all(both.map((t) => t.database.db.updateTable('domains').set({ disabled_at: now }).where('id', '=', domainId).execute()));
    await one.app.appContext.hostedDomains.load();
    await one.app.appContext.linkCache.forgetAll();
    await expect.poll(async () => (await visitTwo(`/${code}`)).statusCode, { timeout: 2000 }).toBe(410);
    expect((await visitTwo('/')).statusCode).toBe(410);
  });
});

describe.each(testDialects)('unknown codes on a custom domain on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { PUBLIC_BASE_URL: `https://${INSTANCE}`, REDIRECT_MISS_LIMIT: '2' });
    await insertDomain(t.database.db, { hostname: A });
    await t.app.appContext.hostedDomains.load();
  });
  afterAll(() => t.close());

  it('counts toward the client\'s misses as on the instance: past the limit, the 429 page', async () => {
    const visit = (path: string) => t.app.inject({ method: 'GET', url: path, headers: { host: A }, remoteAddress: '203.0.113.9' });
    expect((await visit('/nohay1')).statusCode).toBe(404);
    expect((await visit('/nohay2')).statusCode).toBe(404);
    const third = await visit('/nohay3');
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();
  });
});
