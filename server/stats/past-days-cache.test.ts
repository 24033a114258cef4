import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { agents } from '../redirect/redirect.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { dayOf } from '../clicks/visitors';
import { createRankedRollupsCaches, rankedRollups, type RankedRollupsCaches } from './ranked-rollups';
import { openDatabaseReader, type DatabaseReader } from '../db/database-reader';
import { statsOf, visit, writePastClicks } from './stats.test-support';

describe.each(testDialects)('stats of days before yesterday, kept between requests, on %s', (dialect) => {
  let t: TestApp;
  let owner: { cookie: string };
  let reader: DatabaseReader;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await registerUser(t.app);
    reader = openDatabaseReader(t.database, t.app.log, 'stats');
  });
  afterAll(async () => {
    await reader.close();
    await t.close();
  });

  it('counts clicks of today and yesterday that arrive after a first answer', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    await writePastClicks(t, link.id, [{ daysAgo: 20 }]);
    expect((await statsOf(t, link.id, owner.cookie)).total).toBe(1);

    await visit(t, link.shortCode, '1.1.1.1', { 'user-agent': agents.iphone });
    await t.app.appContext.clickWriter.flush();
    await writePastClicks(t, link.id, [{ daysAgo: 1 }]);
    for (const range of ['', '?range=7d', '?range=30d']) {
      const stats = await statsOf(t, link.id, owner.cookie, range);
      expect(stats.total, range).toBe(range === '?range=7d' ? 2 : 3);
      expect(stats.byDay.reduce((sum, day) => sum + day.clicks, 0)).toBe(stats.total);
    }
  });

  it('reuses the sums of settled days, and reads them again once they expire', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    await writePastClicks(t, link.id, [{ daysAgo: 5 }]);
    const cache = createRankedRollupsCaches();
    const now = Date.now();
    // The last 30 days, as the card's '30d' asks the reader.
    const stats = async (withCache: RankedRollupsCaches, at: number) => {
      const { days, ranked } = await rankedRollups(reader, withCache, { urlId: link.id, range: { from: dayOf(now) - 29, to: dayOf(now) }, now: at });
      return { total: days.reduce((sum, day) => sum + day.clicks, 0), byCity: ranked.city };
    };
    expect((await stats(cache, now)).total).toBe(1);

    // A click for a settled day written late (as after a long outage): not read again at once...
    await writePastClicks(t, link.id, [{ daysAgo: 5, city: 'Lima' }]);
    expect((await stats(cache, now + 1000)).total).toBe(1);
    // ...but within ten minutes, and by a cache-less reader at once.
    expect((await stats(cache, now + 11 * 60_000)).total).toBe(2);
    expect((await stats(createRankedRollupsCaches(), now)).byCity).toEqual([
      { value: 'Lima', clicks: 1 },
      { value: 'Madrid', clicks: 1 },
    ]);
  });

  it("keeps a range's answer while its last two days' counts stand, and reads them again after any click", async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    await writePastClicks(t, link.id, [{ daysAgo: 0 }, { daysAgo: 0 }, { daysAgo: 5, city: 'Quito' }]);
    const caches = createRankedRollupsCaches();
    const now = Date.now();
    const answer = () => rankedRollups(reader, caches, { urlId: link.id, range: { from: dayOf(now) - 29, to: dayOf(now) }, now });
    const first = await answer();
    expect(first.ranked.city).toEqual([
      { value: 'Madrid', clicks: 2 },
      { value: 'Quito', clicks: 1 },
    ]);

    // A row no click wrote (today's counts unchanged): the kept answer is given, not a new read.
    await t.database.db.insertInto('click_rollups').values({ url_id: link.id, day: dayOf(now), dimension: 'city', value: 'Sin clic', clicks: 9 }).execute();
    expect(await answer()).toEqual(first);

    // A bot's click changes only the bots' count: the days are read again, the row above with them.
    await writePastClicks(t, link.id, [{ daysAgo: 0, isBot: true }]);
    const afterBot = await answer();
    expect(afterBot.botClicks).toBe(1);
    expect(afterBot.ranked.city[0]).toEqual({ value: 'Sin clic', clicks: 9 });

    // A person's click yesterday, likewise.
    await writePastClicks(t, link.id, [{ daysAgo: 1, city: 'Lima' }]);
    const afterYesterday = await answer();
    expect(afterYesterday.ranked.city.map((row) => row.value)).toEqual(['Sin clic', 'Madrid', 'Lima', 'Quito']);
    expect(afterYesterday.days.reduce((sum, day) => sum + day.clicks, 0)).toBe(4);
  });

  it('ranks the cities of the kept days and of the last two together, as one sum over every click would', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    // Settled days: 'Ciudad 00' to 'Ciudad 19' with 20 down to 1 clicks.
    const cities = Array.from({ length: 20 }, (_, i) => `Ciudad ${String(i).padStart(2, '0')}`);
    await writePastClicks(t, link.id, cities.flatMap((city, i) => Array.from({ length: 20 - i }, () => ({ daysAgo: 5, city }))));
    const cache = createRankedRollupsCaches();
    const now = Date.now();
    const byCity = async () =>
      (await rankedRollups(reader, cache, { urlId: link.id, range: { from: dayOf(now) - 29, to: dayOf(now) }, now })).ranked.city;
    expect(await byCity()).toEqual(cities.slice(0, 5).map((value, i) => ({ value, clicks: 20 - i })));

    // Today and yesterday: a city the kept days never had (tying with the fourth: equal counts go by
    // name), one from far down overtaking them all, and one rising that stays out.
    await writePastClicks(t, link.id, [
      ...Array.from({ length: 18 }, () => ({ daysAgo: 0, city: 'Lima' })),
      ...Array.from({ length: 15 }, () => ({ daysAgo: 1, city: 'Ciudad 10' })),
      ...Array.from({ length: 2 }, () => ({ daysAgo: 0, city: 'Ciudad 06' })),
    ]);
    const rows = await t.database.db.selectFrom('clicks').select('city').where('url_id', '=', link.id).execute();
    const counts = new Map<string, number>();
    for (const { city } of rows) counts.set(city!, (counts.get(city!) ?? 0) + 1);
    const truth = [...counts]
      .map(([value, clicks]) => ({ value, clicks }))
      .sort((a, b) => b.clicks - a.clicks || (a.value < b.value ? -1 : 1))
      .slice(0, 5);
    expect(truth.map((row) => row.value)).toEqual(['Ciudad 10', 'Ciudad 00', 'Ciudad 01', 'Ciudad 02', 'Lima']);
    expect(await byCity()).toEqual(truth);
  });

  it('ranks hundreds of recent cities on the reader, holding only the best as they come, as one sum over every click would', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    // 300 cities today (1 to 7 clicks each, in no order of their counts), 60 of them and 20 others
    // on a settled day too: many more candidates than the card's 5, so the best are trimmed as they come.
    const city = (i: number) => `Ciudad ${String(i).padStart(3, '0')}`;
    await writePastClicks(t, link.id, [
      ...Array.from({ length: 300 }, (_, i) => Array.from({ length: ((i * 37) % 7) + 1 }, () => ({ daysAgo: 0, city: city(i) }))).flat(),
      ...Array.from({ length: 80 }, (_, i) => Array.from({ length: (i % 5) + 2 }, () => ({ daysAgo: 6, city: city(i * 5 + 1) }))).flat(),
    ]);
    const rows = await t.database.db.selectFrom('clicks').select('city').where('url_id', '=', link.id).execute();
    const counts = new Map<string, number>();
    for (const { city: value } of rows) counts.set(value!, (counts.get(value!) ?? 0) + 1);
    const truth = [...counts]
      .map(([value, clicks]) => ({ value, clicks }))
      .sort((a, b) => b.clicks - a.clicks || (a.value < b.value ? -1 : 1))
      .slice(0, 5);
    const now = Date.now();
    const answer = await reader.run('rankedRollups', { urlId: link.id, range: { from: dayOf(now) - 29, to: dayOf(now) }, now });
    expect(answer.ranked.city).toEqual(truth);
    expect(answer.days.reduce((sum, day) => sum + day.clicks, 0)).toBe(rows.length);
  });
});
