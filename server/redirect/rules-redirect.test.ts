import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Rule, Variant } from '@common/rules/rule-schemas';
import { hashPassword } from '../auth/passwords';
import type { Visit } from '../clicks/enrich';
import { openRulesGeo } from '../rules/visitor-traits';
import { createTestApp, createTwoInstancesOnRedis, type TestApp, testDialects } from '../test/test-app';
import { redisReachable, testRedisUrl as redisUrl } from '../test/redis';
import { agents, clickCount, insertLink, rawRequest, requestOn, type RawAnswer, setRoute } from './redirect.test-support';
import { visitorMessages as m } from './visitor-pages';

// Where a visit of a link with rules or A/B variants goes (docs/rules.md), over real HTTP: the
// first visit through Fastify's route (the link looked up), the next ones through the fast path.

// DB-IP places these: Telefónica's resolver in Madrid, an address in Mexico City, Google's in the US.
const SPAIN = '80.58.61.250';
const MEXICO = '201.141.0.1';
const US = '8.8.8.8';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

const withoutDate = (answer: RawAnswer) => {
  const headers = { ...answer.headers };
  delete headers.date;
  return headers;
};

describe.each(testDialects)('a link with rules or A/B variants on %s', (dialect) => {
  let t: TestApp;
  let base = '';
  let host = '';
  beforeAll(async () => {
    // TRUST_PROXY: X-Forwarded-For places a visitor in a country.
    t = await createTestApp(dialect, { TRUST_PROXY: 'true' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    host = new URL(base).host;
  });
  afterAll(() => t.close());

  const visit = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    requestOn(base, host, path, { method, headers: { 'user-agent': agents.desktop, ...headers } });
  const location = async (path: string, headers: Record<string, string> = {}) => {
    const answer = await visit(path, headers);
    expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(302);
    return answer.headers.location;
  };
  const routed = async (route: Parameters<typeof setRoute>[2], state: Parameters<typeof insertLink>[1] = {}) => {
    const link = await insertLink(t.database.db, { originalUrl: 'https://example.com/web', ...state });
    const ids = await setRoute(t.database.db, link.id, route);
    return { ...link, ids, path: `/${link.shortUrl}` };
  };
  const forget = (link: { shortUrl: string; customUrl: string | null }) => t.app.appContext.linkCache.forget({ shortCode: link.shortUrl, customUrl: link.customUrl });
  /** The visits handed to the click writer while `run` runs (it still writes them). */
  const recordedDuring = async (run: () => Promise<unknown>) => {
    const record = vi.spyOn(t.app.appContext.clickWriter, 'record');
    try {
      await run();
      return record.mock.calls.map(([visit]) => visit as Visit);
    } finally {
      record.mockRestore();
    }
  };

  const appRules: Rule[] = [
    { when: { os: ['ios'] }, url: 'https://apps.apple.com/es/app/corto/id123' },
    { when: { os: ['android'] }, url: 'https://play.google.com/store/apps/details?id=corto' },
  ];

  it('sends an iPhone to the App Store, an Android phone to Google Play, everyone else to the web: the first visit and the next alike', async () => {
    const link = await routed({ rules: appRules });
    const resolve = vi.spyOn(t.app.appContext.linkCache, 'resolve');
    try {
      for (const [agent, expected] of [
        [agents.iphone, appRules[0]!.url],
        [agents.android, appRules[1]!.url],
        [agents.desktop, 'https://example.com/web'],
        [agents.ipad, appRules[0]!.url],
      ] as const) {
        await forget(link);
        const calls = resolve.mock.calls.length;
        const first = await visit(link.path, { 'user-agent': agent });
        expect(resolve.mock.calls.length).toBe(calls + 1); // not cached: Fastify's route looked it up
        const second = await visit(link.path, { 'user-agent': agent });
        expect(resolve.mock.calls.length).toBe(calls + 1); // the fast path, from memory
        expect(first.status).toBe(302);
        expect(first.headers.location).toBe(expected);
        expect(first.headers['cache-control']).toBe('no-store');
        expect(withoutDate(second)).toEqual(withoutDate(first));
      }
    } finally {
      resolve.mockRestore();
    }
    await t.app.appContext.clickWriter.flush();
    expect(await clickCount(t.database.db, link.id)).toBe(8);
  });

  it('places a visitor in a country by the forwarded address, once the geo database is open', async () => {
    const link = await routed({
      rules: [
        { when: { country: ['ES'], language: ['ca'] }, url: 'https://example.com/cat' },
        { when: { country: ['ES'] }, url: 'https://example.com/es' },
        { when: { country: ['MX', 'AR'] }, url: 'https://example.com/mx' },
      ],
    });
    // The first visit of a link with a country rule opens the database; until it is read, no country.
    expect((await visit(link.path, { 'x-forwarded-for': SPAIN })).status).toBe(302);
    await openRulesGeo({ error() {} }).ready;
    expect(await location(link.path, { 'x-forwarded-for': SPAIN })).toBe('https://example.com/es');
    expect(await location(link.path, { 'x-forwarded-for': SPAIN, 'accept-language': 'ca-ES,es;q=0.8' })).toBe('https://example.com/cat');
    expect(await location(link.path, { 'x-forwarded-for': MEXICO, 'accept-language': 'ca' })).toBe('https://example.com/mx');
    expect(await location(link.path, { 'x-forwarded-for': US })).toBe('https://example.com/web');
    expect(await location(link.path)).toBe('https://example.com/web'); // 127.0.0.1: no country
    expect(await location(link.path, { 'x-forwarded-for': 'not an address' })).toBe('https://example.com/web');
  });

  it("follows the visitor's preferred language, and never fails on a huge, malformed or absent header", async () => {
    const link = await routed({ rules: [{ when: { language: ['es'] }, url: 'https://example.com/es' }] });
    expect(await location(link.path, { 'accept-language': 'es-MX,es;q=0.9,en;q=0.8' })).toBe('https://example.com/es');
    expect(await location(link.path, { 'accept-language': 'en;q=0.3, ES;q=0.9' })).toBe('https://example.com/es');
    expect(await location(link.path, { 'accept-language': 'en-US,es;q=0.9' })).toBe('https://example.com/web');
    for (const odd of [`${'x'.repeat(8000)},es`, ';;;,,,=q', 'es;q=', '*', '\u00e9\u00f1', 'es'.repeat(3000)]) {
      const answer = await visit(link.path, { 'accept-language': odd });
      expect(answer.status, odd.slice(0, 20)).toBe(302);
    }
    // Nothing but the request line and Host: no agent, no language, no cookie.
    const port = Number(new URL(base).port);
    const bare = await rawRequest(port, `GET ${link.path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(bare.statusLine).toBe('HTTP/1.1 302 Found');
    expect(bare.raw).toContain('location: https://example.com/web');
    for (const agent of ['', '\u00e9\u00ff(', 'x'.repeat(6000), agents.googlebot]) expect((await visit(link.path, { 'user-agent': agent })).status).toBe(302);
  });

  it("tests the visit's query parameters, and a rule's time window", async () => {
    const now = Date.now();
    const link = await routed({
      rules: [
        { when: { from: iso(now + HOUR), until: iso(now + 2 * HOUR) }, url: 'https://example.com/luego' },
        { when: { until: iso(now - HOUR) }, url: 'https://example.com/antes' },
        { when: { query: { utm_source: 'boletin' } }, url: 'https://example.com/boletin' },
        { when: { query: { ref: '*' } }, url: 'https://example.com/ref' },
        { when: { from: iso(now - HOUR), until: iso(now + HOUR) }, url: 'https://example.com/ahora' },
      ],
    });
    expect(await location(`${link.path}?utm_source=boletin`)).toBe('https://example.com/boletin');
    expect(await location(`${link.path}?utm_source=otro&ref=`)).toBe('https://example.com/ref');
    expect(await location(`${link.path}?ref=amiga`)).toBe('https://example.com/ref');
    expect(await location(`${link.path}?utm_source=%E0%A4&x=%`)).toBe('https://example.com/ahora');
    expect(await location(link.path)).toBe('https://example.com/ahora');
  });

  it("passes the visit's query on to whichever URL wins when the link forwards it, and counts a QR scan", async () => {
    const link = await routed({ rules: [{ when: { os: ['ios'] }, url: 'https://apps.apple.com/app?id=1' }] });
    await t.database.db.updateTable('urls').set({ forward_query: 1 }).where('id', '=', link.id).execute();
    await forget(link);
    expect(await location(`${link.path}?utm_campaign=qr&qr=1`, { 'user-agent': agents.iphone })).toBe('https://apps.apple.com/app?id=1&utm_campaign=qr');
    expect(await location(`${link.path}?utm_campaign=qr`, { 'user-agent': agents.iphone })).toBe('https://apps.apple.com/app?id=1&utm_campaign=qr');
    expect(await location(`${link.path}?utm_campaign=qr`)).toBe('https://example.com/web?utm_campaign=qr');
    expect(await location(link.path, { 'user-agent': agents.iphone })).toBe('https://apps.apple.com/app?id=1');
  });

  it('answers with the status the link says, HEAD and the fast path alike; 301 and 308 may be kept a day by the browser', async () => {
    for (const status of [301, 307, 308] as const) {
      const plain = await routed({ redirectType: status });
      const ruled = await routed({ rules: appRules, redirectType: status });
      for (const path of [plain.path, plain.path, ruled.path, ruled.path]) {
        const answer = await visit(path, { 'user-agent': agents.iphone });
        expect(answer.status, `${status} ${path}`).toBe(status);
        expect(answer.headers.location).toBe(path === plain.path ? 'https://example.com/web' : appRules[0]!.url);
        expect(answer.headers['cache-control']).toBe(status === 307 ? 'no-store' : 'private, max-age=86400');
        expect(answer.headers['x-content-type-options']).toBe('nosniff');
      }
      const head = await visit(ruled.path, { 'user-agent': agents.android }, 'HEAD');
      expect([head.status, head.headers.location]).toEqual([status, appRules[1]!.url]);
    }
    // 302 unless told: a stored 302 is a plain link, its entry as small as ever.
    const plain = await routed({ redirectType: 302 });
    expect((await visit(plain.path)).status).toBe(302);
    expect(Object.keys(t.app.appContext.linkCache.peek(plain.shortUrl)!).sort()).toEqual(['id', 'url']);
  });

  it("keeps a link's gates first: paused, past its date and password come before its rules", async () => {
    const paused = await routed({ rules: appRules }, { state: { paused: 1 } });
    const pausedAnswer = await visit(paused.path, { 'user-agent': agents.iphone });
    expect(pausedAnswer.status).toBe(404);
    expect(pausedAnswer.body).toContain(m.pausedTitle);
    const expired = await routed({ rules: appRules, redirectType: 301 }, { state: { expires_at: Date.now() - 1000 } });
    expect((await visit(expired.path, { 'user-agent': agents.iphone })).status).toBe(410);
    const dated = await routed({ rules: appRules }, { state: { expires_at: Date.now() + HOUR } });
    for (let i = 0; i < 2; i++) expect(await location(dated.path, { 'user-agent': agents.android })).toBe(appRules[1]!.url);
    const limited = await routed({ rules: appRules }, { state: { max_clicks: 100 } });
    for (let i = 0; i < 2; i++) expect(await location(limited.path, { 'user-agent': agents.iphone })).toBe(appRules[0]!.url);

    const locked = await routed({ rules: appRules }, { state: { password_hash: await hashPassword('abre-sesamo') } });
    const form = await visit(locked.path, { 'user-agent': agents.iphone });
    expect(form.status).toBe(200);
    expect(form.body).toContain(m.passwordTitle);
    const visits = await recordedDuring(async () => {
      const unlocked = await visit(locked.path, { 'user-agent': agents.iphone, 'content-type': 'application/x-www-form-urlencoded' }, 'POST');
      expect(unlocked.status).toBe(401); // no password in an empty body
      const right = await requestOn(base, host, locked.path, {
        method: 'POST',
        headers: { 'user-agent': agents.iphone, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'password=abre-sesamo',
      });
      expect([right.status, right.headers.location]).toEqual([302, appRules[0]!.url]);
    });
    expect(visits).toMatchObject([{ urlId: locked.id, destinationId: locked.ids.get(`rule ${appRules[0]!.url}`) }]);
  });

  describe('an A/B test', () => {
    const variants: Variant[] = [
      { url: 'https://example.com/a', weight: 50 },
      { url: 'https://example.com/b', weight: 50 },
    ];
    const cookieOf = (answer: RawAnswer) => {
      const header = answer.headers['set-cookie'];
      return Array.isArray(header) ? header : header === undefined ? [] : [header];
    };

    it('gives a new visitor a bucket in a cookie, and the variant of that bucket', async () => {
      const link = await routed({ variants });
      const first = await visit(link.path, { 'x-forwarded-for': '198.51.100.20' });
      const [cookie] = cookieOf(first);
      const match = new RegExp(`^corto_ab_${link.id}=(\\d{1,2}); Max-Age=2592000; Path=/; HttpOnly; SameSite=Lax$`).exec(cookie ?? '');
      expect(match, cookie).not.toBeNull();
      const bucket = Number(match![1]);
      expect(first.headers.location).toBe(bucket < 50 ? variants[0]!.url : variants[1]!.url);
      expect(first.headers['cache-control']).toBe('no-store');
      // Without its cookie, the same visitor the same day: the same variant (the fast path now).
      const again = await visit(link.path, { 'x-forwarded-for': '198.51.100.20' });
      expect([again.headers.location, cookieOf(again)]).toEqual([first.headers.location, [cookie]]);
      // With it: that bucket, whoever they seem to be, and no cookie again.
      for (const [kept, expected] of [
        [0, variants[0]!.url],
        [49, variants[0]!.url],
        [50, variants[1]!.url],
        [99, variants[1]!.url],
      ] as const) {
        const answer = await visit(link.path, { 'x-forwarded-for': '203.0.113.9', cookie: `otra=1; corto_ab_${link.id}=${kept}` });
        expect([answer.headers.location, cookieOf(answer)]).toEqual([expected, []]);
      }
      // A cookie that holds no bucket is ignored.
      const odd = await visit(link.path, { 'x-forwarded-for': '198.51.100.20', cookie: `corto_ab_${link.id}=abc` });
      expect([odd.headers.location, cookieOf(odd)]).toEqual([first.headers.location, [cookie]]);
    });

    it('splits distinct visitors between the variants; HEAD follows the same choice without a cookie', async () => {
      const link = await routed({ variants });
      const seen = new Map<string, number>();
      for (let n = 0; n < 40; n++) {
        const address = `198.51.100.${n + 1}`;
        const answer = await visit(link.path, { 'x-forwarded-for': address });
        seen.set(answer.headers.location as string, (seen.get(answer.headers.location as string) ?? 0) + 1);
        if (n < 5) {
          const head = await visit(link.path, { 'x-forwarded-for': address }, 'HEAD');
          expect([head.status, head.headers.location, cookieOf(head)]).toEqual([302, answer.headers.location, []]);
        }
      }
      expect([...seen.keys()].sort()).toEqual([variants[0]!.url, variants[1]!.url]);
    });

    it('comes after the rules: a visitor a rule sends gets no cookie', async () => {
      const link = await routed({ rules: appRules, variants });
      const ruled = await visit(link.path, { 'user-agent': agents.iphone });
      expect([ruled.headers.location, cookieOf(ruled)]).toEqual([appRules[0]!.url, []]);
      const tested = await visit(link.path);
      expect(variants.map((variant) => variant.url)).toContain(tested.headers.location);
      expect(cookieOf(tested)).toHaveLength(1);
    });

    it('marks the cookie Secure for a visit that came over HTTPS (a custom domain behind Caddy)', async () => {
      const link = await routed({ variants });
      const [cookie] = cookieOf(await visit(link.path, { 'x-forwarded-proto': 'https' }));
      expect(cookie).toMatch(/; Secure$/);
    });
  });

  it('hands the click writer where each visit went: the rule, the variant, or nothing for the link\'s own URL', async () => {
    const variants: Variant[] = [
      { url: 'https://example.com/a', weight: 1 },
      { url: 'https://example.com/b', weight: 99 },
    ];
    const rules: Rule[] = [...appRules, { when: { device: ['tablet'] }, url: 'https://example.com/sin-fila' }];
    const link = await routed({ rules, variants, unnamed: ['https://example.com/sin-fila'] });
    const visits = await recordedDuring(async () => {
      await visit(link.path, { 'user-agent': agents.iphone }); // the route's answer
      await visit(link.path, { 'user-agent': agents.iphone }); // the fast path's
      await visit(link.path, { 'user-agent': agents.android });
      await visit(link.path, { cookie: `corto_ab_${link.id}=0` });
      await visit(link.path, { cookie: `corto_ab_${link.id}=50` });
      await visit(link.path, { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)', cookie: `corto_ab_${link.id}=50` }, 'HEAD');
      await visit(link.path, { 'user-agent': agents.googlebot, cookie: `corto_ab_${link.id}=50` });
    });
    expect(visits.map((v) => v.destinationId)).toEqual([
      link.ids.get(`rule ${rules[0]!.url}`),
      link.ids.get(`rule ${rules[0]!.url}`),
      link.ids.get(`rule ${rules[1]!.url}`),
      link.ids.get(`variant ${variants[0]!.url}`),
      link.ids.get(`variant ${variants[1]!.url}`),
      // HEAD is not a click; a bot's is, flagged by the writer, and goes where a person would.
      link.ids.get(`variant ${variants[1]!.url}`),
    ]);
    expect(visits.every((v) => typeof v.destinationId === 'number')).toBe(true);
    // A rule's URL without its row is counted as the link's own (0); so is the link's own URL.
    const more = await recordedDuring(async () => {
      expect(await location(link.path, { 'user-agent': agents.ipad })).toBe(appRules[0]!.url); // iPadOS: the first rule
      await setRoute(t.database.db, link.id, { rules: [{ when: { device: ['tablet'] }, url: 'https://example.com/sin-fila' }], variants: null, unnamed: ['https://example.com/sin-fila'] });
      await forget(link);
      expect(await location(link.path, { 'user-agent': agents.ipad })).toBe('https://example.com/sin-fila');
      expect(await location(link.path)).toBe('https://example.com/web');
    });
    expect(more.map((v) => v.destinationId)).toEqual([link.ids.get(`rule ${appRules[0]!.url}`), 0, 0]);
  });

  it("sends the visits of a rule or variant whose domain an operator blocked to the link's own URL, counted there", async () => {
    await t.database.db.insertInto('blocked_domains').values({ domain: 'bloqueado.example', created_at: Date.now() }).execute();
    await t.app.appContext.blockedDomains.load(); // as the admin settings do on a change
    try {
      const variants: Variant[] = [
        { url: 'https://sub.bloqueado.example/a', weight: 50 },
        { url: 'https://example.com/b', weight: 50 },
      ];
      const link = await routed({ rules: [{ when: { os: ['ios'] }, url: 'https://bloqueado.example/app' }, appRules[1]!], variants });
      const visits = await recordedDuring(async () => {
        expect(await location(link.path, { 'user-agent': agents.iphone })).toBe('https://example.com/web');
        expect(await location(link.path, { 'user-agent': agents.android })).toBe(appRules[1]!.url);
        expect(await location(link.path, { cookie: `corto_ab_${link.id}=10` })).toBe('https://example.com/web');
        expect(await location(link.path, { cookie: `corto_ab_${link.id}=60` })).toBe('https://example.com/b');
      });
      expect(visits.map((v) => v.destinationId)).toEqual([
        0,
        link.ids.get(`rule ${appRules[1]!.url}`),
        0,
        link.ids.get('variant https://example.com/b'),
      ]);
    } finally {
      await t.database.db.deleteFrom('blocked_domains').execute();
      await t.app.appContext.blockedDomains.load();
      await t.app.appContext.linkCache.forgetAll();
    }
  });

  it("takes rules it cannot read for none: the link's own URL, never a 5xx", async () => {
    const link = await insertLink(t.database.db, { originalUrl: 'https://example.com/web' });
    await t.database.db.updateTable('urls').set({ rules: '{not json', variants: '[]' }).where('id', '=', link.id).execute();
    expect(await location(`/${link.shortUrl}`, { 'user-agent': agents.iphone })).toBe('https://example.com/web');
    expect(Object.keys(t.app.appContext.linkCache.peek(link.shortUrl)!).sort()).toEqual(['id', 'url']);
  });
});

const hasRedis = await redisReachable(redisUrl);

describe.runIf(hasRedis).each(testDialects)('rules edited on one instance, on %s', (dialect) => {
  let one: TestApp;
  let two: TestApp;
  beforeEach(async () => {
    [one, two] = await createTwoInstancesOnRedis(dialect, redisUrl);
  });
  afterEach(async () => {
    await one?.close();
    await two?.close();
  });

  it('apply on the other at once, though it answered the link from memory', async () => {
    // Each instance has its own database; the same code in both stands for one shared link.
    const onOne = await insertLink(one.database.db, { originalUrl: 'https://example.com/web' });
    const onTwo = await insertLink(two.database.db, { originalUrl: 'https://example.com/web', shortUrl: onOne.shortUrl });
    const base = await two.app.listen({ port: 0, host: '127.0.0.1' });
    const visitTwo = () => requestOn(base, new URL(base).host, `/${onOne.shortUrl}`, { headers: { 'user-agent': agents.iphone } });
    expect((await visitTwo()).headers.location).toBe('https://example.com/web');
    expect((await visitTwo()).headers.location).toBe('https://example.com/web');
    expect(two.app.appContext.linkCache.peek(onOne.shortUrl)).toBeDefined();

    const rules: Rule[] = [{ when: { os: ['ios'] }, url: 'https://apps.apple.com/app' }];
    // The shared row changes (here, in both databases), and the instance that edited it forgets it.
    await setRoute(two.database.db, onTwo.id, { rules, redirectType: 307 });
    await setRoute(one.database.db, onOne.id, { rules, redirectType: 307 });
    await one.app.appContext.linkCache.forget({ shortCode: onOne.shortUrl, customUrl: null });
    await expect.poll(() => two.app.appContext.linkCache.peek(onOne.shortUrl), { timeout: 2000 }).toBeUndefined();
    const after = await visitTwo();
    expect([after.status, after.headers.location]).toEqual([307, 'https://apps.apple.com/app']);
  });
});
