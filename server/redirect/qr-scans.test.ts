import type { AddressInfo } from 'node:net';
import type { Link } from '@common/links/link-schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs, decodeQr } from '../links/links.test-support';
import { statsOf } from '../stats/stats.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';
import { agents, clickCount, rollup } from './redirect.test-support';

describe.each(testDialects)('QR scans and query forwarding on %s', (dialect) => {
  let t: TestApp;
  let owner: { cookie: string };
  let origin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await registerUser(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  const flush = () => t.app.appContext.clickWriter.flush();
  const linkOf = async (id: number): Promise<Link> =>
    (await t.app.inject({ method: 'GET', url: `/api/links/${id}`, headers: { cookie: owner.cookie } })).json().link;
  /** A visit over real HTTP: the fast path in front of Fastify answers a cached link. */
  const visit = async (path: string, agent = agents.iphone) => {
    const response = await fetch(`${origin}${path}`, { redirect: 'manual', headers: { 'user-agent': agent } });
    expect(response.status).toBe(302);
    return response.headers.get('location');
  };

  it('stores a QR that carries the short address with ?qr=1', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    const stored = await t.app.inject({ method: 'GET', url: new URL(link.qr, origin).pathname });
    expect(await decodeQr(stored.rawPayload)).toBe(`${link.shortLink}?qr=1`);
  });

  it('counts a ?qr=1 visit as a click and a scan, through both the route and the fast path, and never passes qr on', async () => {
    const link = await createLinkAs(t.app, owner.cookie, { longUrl: 'https://example.com/menu?mesa=4#postres' });
    // The first visit is a cache miss (Fastify's route), the rest hit the fast path.
    for (let i = 0; i < 3; i++) expect(await visit(`/${link.shortCode}?qr=1`)).toBe('https://example.com/menu?mesa=4#postres');
    expect(await visit(`/${link.shortCode}`)).toBe('https://example.com/menu?mesa=4#postres');
    expect(await visit(`/${link.shortCode}?qr=0`)).toBe('https://example.com/menu?mesa=4#postres');
    // A crawler reading the code is recorded as a bot: neither click nor scan.
    await visit(`/${link.shortCode}?qr=1`, agents.googlebot);
    const head = await fetch(`${origin}/${link.shortCode}?qr=1`, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(302);
    await flush();
    expect(await clickCount(t.database.db, link.id)).toBe(5);
    expect((await linkOf(link.id)).scans).toBe(3);
    expect(await rollup(t.database.db, link.id, 'scans')).toEqual({ '': 3 });
    const stats = await statsOf(t, link.id, owner.cookie);
    expect(stats).toMatchObject({ total: 5, scans: 3 });
    expect(stats.byDay.at(-1)).toMatchObject({ clicks: 5, scans: 3 });
  });

  it('forwards the visit\'s query (less qr) into the destination\'s when the link asks for it', async () => {
    const link = await createLinkAs(t.app, owner.cookie, { longUrl: 'https://example.com/p?flag&a=1#top' });
    expect(link.forwardQuery).toBe(false);
    // Off: the visit's own query goes nowhere.
    expect(await visit(`/${link.shortCode}?utm_source=cartel&qr=1`)).toBe('https://example.com/p?flag&a=1#top');
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/links/${link.id}`,
      headers: { cookie: owner.cookie, ...sameOrigin },
      payload: { forwardQuery: true },
    });
    expect(patched.json().link.forwardQuery).toBe(true);
    expect(await visit(`/${link.shortCode}?utm_source=cartel&qr=1&a=2`)).toBe('https://example.com/p?flag&a=2&utm_source=cartel#top');
    expect(await visit(`/${link.shortCode}?qr=1`)).toBe('https://example.com/p?flag&a=1#top');
    expect(await visit(`/${link.shortCode}`)).toBe('https://example.com/p?flag&a=1#top');
    expect(await visit(`/${link.shortCode}?q=%C3%B1&x=%22y%22`)).toBe('https://example.com/p?flag&a=1&q=%C3%B1&x=%22y%22#top');
    await flush();
    expect((await linkOf(link.id)).scans).toBe(3);
  });

  it('takes forwardQuery at creation and refuses a value that is not a boolean', async () => {
    const link = await createLinkAs(t.app, owner.cookie, { forwardQuery: true });
    expect(link.forwardQuery).toBe(true);
    expect(await visit(`/${link.shortCode}?ref=qr-test`)).toBe('https://example.com/a?ref=qr-test');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/links',
      headers: { cookie: owner.cookie, ...sameOrigin },
      payload: { title: 'x', longUrl: 'https://example.com/', forwardQuery: 'sí' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields.forwardQuery).toEqual(['Indica si el link reenvía los parámetros de la visita']);
  });

  it('counts a scan of a link with a click limit once, as a click of the limit', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    await t.app.inject({ method: 'PATCH', url: `/api/links/${link.id}`, headers: { cookie: owner.cookie, ...sameOrigin }, payload: { maxClicks: 5 } });
    expect(await visit(`/${link.shortCode}?qr=1`)).toBe('https://example.com/a');
    await flush();
    const after = await linkOf(link.id);
    expect([after.clicks, after.scans, after.limitClicks]).toEqual([1, 1, 1]);
  });
});
