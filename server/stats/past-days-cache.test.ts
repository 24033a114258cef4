import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { agents } from '../redirect/redirect.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { dayOf } from '../clicks/visitors';
import { createPastDaysCache, type PastDaysCache } from './past-days-cache';
import { rankedRollups } from './ranked-rollups';
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
    const cache = createPastDaysCache();
    const now = Date.now();
    // The last 30 days, as the card's '30d' asks the reader.
    const stats = async (withCache: PastDaysCache, at: number) => {
      const { days, ranked } = await rankedRollups(reader, withCache, { urlId: link.id, range: { from: dayOf(now) - 29, to: dayOf(now) }, now: at });
      return { total: days.reduce((sum, day) => sum + day.clicks, 0), byCity: ranked.city };
    };
    expect((await stats(cache, now)).total).toBe(1);

    // A click for a settled day written late (as after a long outage): not read again at once...
    await writePastClicks(t, link.id, [{ daysAgo: 5, city: 'Lima' }]);
    expect((await stats(cache, now + 1000)).total).toBe(1);
    // ...but within ten minutes, and by a cache-less reader at once.
    expect((await stats(cache, now + 11 * 60_000)).total).toBe(2);
    expect((await stats(createPastDaysCache(), now)).byCity).toEqual([
      { value: 'Lima', clicks: 1 },
      { value: 'Madrid', clicks: 1 },
    ]);
  });
});
