import { textMessages } from '@common/text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { agents } from '../redirect/redirect.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { requestStats, statsOf, visit, writePastClicks } from './stats.test-support';

const today = () => new Date().toISOString().slice(0, 10);

describe.each(testDialects)('GET /api/links/:id/stats on %s', (dialect) => {
  let t: TestApp;
  let owner: { cookie: string };
  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await registerUser(t.app);
  });
  afterAll(() => t.close());

  it('answers 401 to an anonymous caller and 404 for another user\'s link or a malformed id', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    const other = await registerUser(t.app);
    const anonymous = await requestStats(t, link.id);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('unauthorized');
    const foreign = await requestStats(t, link.id, other.cookie);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('not_found');
    for (const id of ['abc', '0', '-1', '99999999999999999999']) {
      expect((await requestStats(t, id, owner.cookie)).statusCode).toBe(404);
    }
  });

  it('refuses an unknown range with a 400 envelope naming the field', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    for (const range of ['1y', '', '7D']) {
      const response = await requestStats(t, link.id, owner.cookie, `?range=${range}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'validation', fields: { range: ['El periodo debe ser 7d, 30d, 90d o all.'] } });
    }
    // A control character is refused before the range is read, by the check every route shares.
    const withNul = await requestStats(t, link.id, owner.cookie, '?range=30d%00');
    expect(withNul.statusCode).toBe(400);
    expect(withNul.json().error).toMatchObject({ code: 'validation', fields: { range: [textMessages.controlCharacters] } });
  });

  it('counts known clicks exactly: cities, countries, devices, browsers, systems, referrers, visitors, bots left out', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    const code = link.shortCode;
    const fromTwitter = { 'user-agent': agents.iphone, referer: 'https://t.co/abc' };
    for (let i = 0; i < 3; i++) await visit(t, code, '1.1.1.1', fromTwitter); // Sydney, one visitor
    for (let i = 0; i < 2; i++) await visit(t, code, '8.8.8.8', { 'user-agent': agents.desktop }); // Mountain View
    await visit(t, code, '8.8.8.8', { 'user-agent': agents.android }); // same IP, another agent: another visitor
    await visit(t, code, '127.0.0.1', { 'user-agent': agents.desktop }); // no location
    await visit(t, code, '8.8.4.4', { 'user-agent': agents.googlebot });
    await visit(t, code, '8.8.4.4', { 'user-agent': agents.googlebot });
    await visit(t, code, '8.8.4.4', { 'user-agent': agents.whatsapp });
    await visit(t, code, '1.1.1.1', { 'user-agent': agents.desktop }, 'HEAD'); // not a visit at all
    await t.app.appContext.clickWriter.flush();

    const stats = await statsOf(t, link.id, owner.cookie);
    expect(stats.range).toBe('all');
    expect(stats.total).toBe(7);
    expect(stats.botClicks).toBe(3);
    expect(stats.uniqueVisitors).toBe(4);
    expect(stats.byCity).toEqual([
      { city: 'Mountain View', count: 3 },
      { city: 'Sydney', count: 3 },
      { city: 'Unknown', count: 1 },
    ]);
    expect(stats.byCountry).toEqual([
      { country: 'AU', count: 3 },
      { country: 'US', count: 3 },
      { country: 'Unknown', count: 1 },
    ]);
    // 4/7 = 57.14 %, 3/7 = 42.86 %: whole numbers that still add up to 100.
    expect(stats.byDevice).toEqual([
      { device: 'mobile', count: 4, percent: 57 },
      { device: 'desktop', count: 3, percent: 43 },
    ]);
    expect(stats.byBrowser).toEqual([
      { name: 'Chrome', count: 4 },
      { name: 'Mobile Safari', count: 3 },
    ]);
    expect(stats.byOs).toEqual([
      { name: 'Windows', count: 3 },
      { name: 'iOS', count: 3 },
      { name: 'Android', count: 1 },
    ]);
    expect(stats.byReferrer).toEqual([
      { domain: '', count: 4 },
      { domain: 't.co', count: 3 },
    ]);
    expect(stats.to).toBe(today());
    expect(stats.byDay.at(-1)).toEqual({ date: today(), clicks: 7, visitors: 4, scans: 0 });
    // The same total the dashboard shows for the link (urls.click_count, kept by the writer).
    const one = await t.app.inject({ method: 'GET', url: `/api/links/${link.id}`, headers: { cookie: owner.cookie } });
    expect(one.json().link.clicks).toBe(stats.total);
  });

  it('keeps the first 5 cities only, and device shares that sum to 100', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    const cities = { Madrid: 6, Lima: 5, Bogotá: 4, Quito: 3, Santiago: 2, Caracas: 1 };
    const devices = ['mobile', 'tablet', 'desktop'] as const;
    let n = 0;
    await writePastClicks(
      t,
      link.id,
      Object.entries(cities).flatMap(([city, times]) =>
        Array.from({ length: times }, () => ({ daysAgo: 1, city, device: devices[n++ % 3]! })),
      ),
    );
    const stats = await statsOf(t, link.id, owner.cookie);
    expect(stats.total).toBe(21);
    expect(stats.byCity).toEqual([
      { city: 'Madrid', count: 6 },
      { city: 'Lima', count: 5 },
      { city: 'Bogotá', count: 4 },
      { city: 'Quito', count: 3 },
      { city: 'Santiago', count: 2 },
    ]);
    expect(stats.byDevice.map((row) => row.count)).toEqual([7, 7, 7]);
    expect(stats.byDevice.map((row) => row.percent)).toEqual([34, 33, 33]);
    expect(stats.byDevice.reduce((sum, row) => sum + row.percent, 0)).toBe(100);
  });

  it('limits every figure to the range and lists each day of it, zero days included', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    await writePastClicks(t, link.id, [
      { daysAgo: 0 },
      { daysAgo: 2 },
      { daysAgo: 2, device: 'mobile' },
      { daysAgo: 10, city: 'Lima', country: 'PE' },
      { daysAgo: 45, isBot: true },
      { daysAgo: 60 },
    ]);

    const week = await statsOf(t, link.id, owner.cookie, '?range=7d');
    expect(week.byDay).toHaveLength(7);
    expect(week.byDay.map((day) => day.clicks)).toEqual([0, 0, 0, 0, 2, 0, 1]);
    expect(week.total).toBe(3);
    expect(week.byCountry).toEqual([{ country: 'ES', count: 3 }]);
    expect(week.byDevice).toEqual([
      { device: 'desktop', count: 2, percent: 67 },
      { device: 'mobile', count: 1, percent: 33 },
    ]);
    expect(week.from).toBe(week.byDay[0]!.date);

    const month = await statsOf(t, link.id, owner.cookie, '?range=30d');
    expect(month.byDay).toHaveLength(30);
    expect(month.total).toBe(4);
    expect(month.byCity).toEqual([{ city: 'Madrid', count: 3 }, { city: 'Lima', count: 1 }]);
    expect(month.botClicks).toBe(0);

    const quarter = await statsOf(t, link.id, owner.cookie, '?range=90d');
    expect(quarter.byDay).toHaveLength(90);
    expect(quarter.total).toBe(5);
    expect(quarter.botClicks).toBe(1);

    // All time starts at the earliest click here (before the link's creation: written straight in).
    const all = await statsOf(t, link.id, owner.cookie, '?range=all');
    expect(all.byDay).toHaveLength(61);
    expect(all.byDay.reduce((sum, day) => sum + day.clicks, 0)).toBe(all.total);
    expect(all.total).toBe(5);
  });

  it('answers zeros and an empty breakdown for a link nobody visited', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    const stats = await statsOf(t, link.id, owner.cookie);
    expect(stats).toMatchObject({ total: 0, uniqueVisitors: 0, botClicks: 0, byCity: [], byDevice: [], byCountry: [], from: today(), to: today() });
    expect(stats.byDay).toEqual([{ date: today(), clicks: 0, visitors: 0, scans: 0 }]);
  });
});
