import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordVisits, visitFrom } from '../clicks/clicks.test-support';
import type { Visit } from '../clicks/enrich';
import { createLinkAs } from '../links/links.test-support';
import { agents } from '../redirect/redirect.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { routeLink, statsOf, visit, writePastClicks } from './stats.test-support';

// Statistics per destination and of an A/B test, from clicks written with the destination the
// redirect chose (Visit.destinationId: a link_destinations id, 0 for the link's own URL).

const APP_STORE = 'https://apps.apple.com/app/corto';
const PLAY = 'https://play.google.com/store/apps/details?id=corto';
const MEXICO = 'https://ejemplo.mx/';
const A = 'https://ejemplo.es/landing-a';
const B = 'https://ejemplo.es/landing-b';

describe.each(testDialects)('statistics per destination on %s', (dialect) => {
  let t: TestApp;
  let owner: { cookie: string };
  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await registerUser(t.app);
  });
  afterAll(() => t.close());

  const record = (visits: Visit[]) => recordVisits(t, visits);
  const from = visitFrom;
  const rules = [
    { when: { os: ['ios' as const] }, url: APP_STORE },
    { when: { os: ['android' as const] }, url: PLAY },
    { when: { country: ['MX'] }, url: MEXICO },
  ];

  it('counts each rule\'s clicks, visitors and share over the range, the link\'s own URL included, bots left out', async () => {
    const link = await createLinkAs(t.app, owner.cookie, { longUrl: 'https://ejemplo.es/web' });
    const ids = await routeLink(t, link.id, { rules });
    const ios = ids.get(`rule ${APP_STORE}`)!;
    const android = ids.get(`rule ${PLAY}`)!;
    const mexico = ids.get(`rule ${MEXICO}`)!;
    await record([
      from(link.id, '1.1.1.1', agents.iphone, ios),
      from(link.id, '1.1.1.1', agents.iphone, ios),
      from(link.id, '8.8.8.8', agents.iphone, ios),
      from(link.id, '9.9.9.9', agents.android, android),
      from(link.id, '1.0.0.1', agents.desktop, 0),
      from(link.id, '1.0.0.1', agents.desktop, 0),
      from(link.id, '8.8.4.4', agents.googlebot, ios),
      from(link.id, '8.8.4.4', agents.googlebot, 0),
    ]);
    await writePastClicks(t, link.id, Array.from({ length: 4 }, () => ({ daysAgo: 10, destinationId: ios })));

    const week = await statsOf(t, link.id, owner.cookie, '?range=7d');
    expect(week.total).toBe(6);
    expect(week.botClicks).toBe(2);
    expect(week.byDestination).toEqual([
      { destinationId: ios, url: APP_STORE, source: 'rule', clicks: 3, visitors: 2, share: 0.5 },
      { destinationId: null, url: 'https://ejemplo.es/web', source: 'default', clicks: 2, visitors: 1, share: 2 / 6 },
      { destinationId: android, url: PLAY, source: 'rule', clicks: 1, visitors: 1, share: 1 / 6 },
      // A rule nobody matched yet shows as such.
      { destinationId: mexico, url: MEXICO, source: 'rule', clicks: 0, visitors: 0, share: 0 },
    ]);
    expect(week.abTest).toBeNull();

    const month = await statsOf(t, link.id, owner.cookie, '?range=30d');
    expect(month.total).toBe(10);
    expect(month.byDestination[0]).toEqual({ destinationId: ios, url: APP_STORE, source: 'rule', clicks: 7, visitors: 6, share: 0.7 });
    expect(month.byDestination.reduce((sum, row) => sum + row.clicks, 0)).toBe(month.total);

    // The rules edited: the App Store's past clicks stay its own, listed while the range has them.
    await routeLink(t, link.id, { rules: [rules[1]!] });
    const edited = await statsOf(t, link.id, owner.cookie, '?range=7d');
    expect(edited.byDestination.map((row) => [row.url, row.clicks])).toEqual([
      [APP_STORE, 3],
      ['https://ejemplo.es/web', 2],
      [PLAY, 1],
    ]);
  });

  it('compares an A/B test\'s variants by the visitors who came back, with the difference and its confidence', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    const ids = await routeLink(t, link.id, {
      variants: [
        { url: A, weight: 50 },
        { url: B, weight: 50 },
      ],
    });
    const a = ids.get(`variant ${A}`)!;
    const b = ids.get(`variant ${B}`)!;
    const clicks = (destinationId: number, daysAgo: number, visitors: string[]) =>
      visitors.map((visitorHash) => ({ daysAgo, destinationId, visitorHash }));
    // A: 10 visitor-days over two days, 3 of them back the same day (13 clicks); and one beyond a week.
    // B: 10 visitor-days, 1 back (11 clicks).
    await writePastClicks(t, link.id, [
      ...clicks(a, 1, ['a1', 'a1', 'a2', 'a2', 'a3', 'a4', 'a5', 'a6']),
      ...clicks(a, 3, ['a7', 'a7', 'a8', 'a9', 'a10']),
      ...clicks(a, 40, ['viejo', 'viejo']),
      ...clicks(b, 1, ['b1', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8', 'b9', 'b10']),
      { daysAgo: 1, destinationId: b, visitorHash: 'bot', isBot: true },
    ]);

    const week = await statsOf(t, link.id, owner.cookie, '?range=7d');
    expect(week.total).toBe(24);
    expect(week.byDestination).toEqual([
      { destinationId: a, url: A, source: 'variant', clicks: 13, visitors: 10, share: 13 / 24 },
      { destinationId: b, url: B, source: 'variant', clicks: 11, visitors: 10, share: 11 / 24 },
    ]);
    const test = week.abTest!;
    expect(test.variants).toEqual([
      { destinationId: a, url: A, weight: 50, visitors: 10, returning: 3, returnRate: 0.3 },
      { destinationId: b, url: B, weight: 50, visitors: 10, returning: 1, returnRate: 0.1 },
    ]);
    expect(test.leader).toBe(0);
    expect(test.runnerUp).toBe(1);
    // 0.3 − 0.1 = 0.2 ± 1.96·√(0.3·0.7/10 + 0.1·0.9/10) = ± 0.339476; pooled 0.2, z = 0.2/√(0.2·0.8·0.2) = 1.1180,
    // two-sided p = 0.2636: confidence 0.7364.
    expect(test.difference).toBeCloseTo(0.2, 10);
    expect(test.low).toBeCloseTo(-0.139476, 5);
    expect(test.high).toBeCloseTo(0.539476, 5);
    expect(test.confidence).toBeCloseTo(0.73645, 4);

    // Over 90 days A has one more visitor, who came back too: 4 of 11.
    const quarter = await statsOf(t, link.id, owner.cookie, '?range=90d');
    expect(quarter.abTest!.variants[0]).toMatchObject({ visitors: 11, returning: 4 });
  });

  it('leaves a plain link\'s statistics as they were: no destinations, no test', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    await visit(t, link.shortCode, '1.1.1.1', { 'user-agent': agents.iphone });
    await t.app.appContext.clickWriter.flush();
    await writePastClicks(t, link.id, [{ daysAgo: 2 }]);
    const stats = await statsOf(t, link.id, owner.cookie);
    expect(stats.total).toBe(2);
    expect(stats.byDestination).toEqual([]);
    expect(stats.abTest).toBeNull();
  });

  it('names each click\'s destination in the clicks CSV, the link\'s own URL when no rule sent it elsewhere', async () => {
    const link = await createLinkAs(t.app, owner.cookie, { longUrl: 'https://ejemplo.es/web' });
    const ids = await routeLink(t, link.id, { rules });
    await record([
      from(link.id, '1.1.1.1', agents.iphone, ids.get(`rule ${APP_STORE}`)!),
      from(link.id, '1.0.0.1', agents.desktop, 0),
      from(link.id, '9.9.9.9', agents.android, ids.get(`rule ${PLAY}`)!),
    ]);
    const response = await t.app.inject({ method: 'GET', url: `/api/links/${link.id}/clicks.csv`, headers: { cookie: owner.cookie } });
    expect(response.statusCode).toBe(200);
    const records = parse(response.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(records.map((record) => record.destination)).toEqual([APP_STORE, 'https://ejemplo.es/web', PLAY]);
  });
});
