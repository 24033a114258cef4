import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordVisits, visitFrom } from './clicks.test-support';
import { agents, insertLink, rollup } from '../redirect/redirect.test-support';
import { routeLink } from '../stats/stats.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import type { Visit } from './enrich';
import { dayOf } from './visitors';

// Where a link with rules or variants sent each visit, through the app's own click writer (its
// shared-memory batch, its thread, the transaction): clicks.destination_id, the 'destination'
// roll-up and each destination's visitors with their clicks. Bots are written as clicks and counted
// in none of these.

describe.each(testDialects)('clicks that remember their destination on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const record = (visits: Visit[]) => recordVisits(t, visits);
  const from = visitFrom;
  const destinationVisitors = async (urlId: number) => {
    const rows = await t.database.db
      .selectFrom('click_destination_visitors')
      .select(['destination_id', 'day', 'clicks'])
      .where('url_id', '=', urlId)
      .execute();
    return rows
      .map((row) => ({ destination: Number(row.destination_id), day: Number(row.day), clicks: Number(row.clicks) }))
      .sort((a, b) => a.destination - b.destination || a.clicks - b.clicks);
  };
  const storedDestinations = async (urlId: number) => {
    const rows = await t.database.db.selectFrom('clicks').select(['destination_id', 'is_bot']).where('url_id', '=', urlId).orderBy('id').execute();
    return rows.map((row) => [row.destination_id === null ? null : Number(row.destination_id), Number(row.is_bot)]);
  };

  it('writes the destination of a routed link\'s clicks, its roll-up and its visitors, bots left out', async () => {
    const link = await insertLink(t.database.db);
    const ids = await routeLink(t, link.id, { rules: [{ when: { os: ['ios'] }, url: 'https://apps.apple.com/app/x' }] });
    const ios = ids.get('rule https://apps.apple.com/app/x')!;
    const today = dayOf(Date.now());

    await record([
      from(link.id, '1.1.1.1', agents.iphone, ios),
      from(link.id, '1.1.1.1', agents.iphone, ios), // the same visitor again: came back
      from(link.id, '8.8.8.8', agents.iphone, ios),
      from(link.id, '9.9.9.9', agents.desktop, 0), // no rule held: the link's own URL
      from(link.id, '9.9.9.9', agents.android, 0),
      from(link.id, '8.8.4.4', agents.googlebot, ios),
      from(link.id, '8.8.4.4', agents.googlebot, 0),
    ]);

    expect(await storedDestinations(link.id)).toEqual([
      [ios, 0],
      [ios, 0],
      [ios, 0],
      [null, 0],
      [null, 0],
      [ios, 1],
      [null, 1],
    ]);
    expect(await rollup(t.database.db, link.id, 'destination')).toEqual({ [String(ios)]: 3, '': 2 });
    expect(await destinationVisitors(link.id)).toEqual([
      { destination: 0, day: today, clicks: 1 },
      { destination: 0, day: today, clicks: 1 },
      { destination: ios, day: today, clicks: 1 },
      { destination: ios, day: today, clicks: 2 },
    ]);

    // In a later batch, a visitor already counted that day adds to their clicks: one more return.
    await record([from(link.id, '8.8.8.8', agents.iphone, ios)]);
    expect(await rollup(t.database.db, link.id, 'destination')).toEqual({ [String(ios)]: 4, '': 2 });
    expect((await destinationVisitors(link.id)).filter((row) => row.destination === ios)).toEqual([
      { destination: ios, day: today, clicks: 2 },
      { destination: ios, day: today, clicks: 2 },
    ]);
  });

  it('writes nothing per destination for a plain link\'s clicks', async () => {
    const link = await insertLink(t.database.db);
    await record([from(link.id, '1.1.1.1', agents.iphone), from(link.id, '1.1.1.1', agents.iphone), from(link.id, '8.8.4.4', agents.googlebot)]);
    expect(await storedDestinations(link.id)).toEqual([
      [null, 0],
      [null, 0],
      [null, 1],
    ]);
    expect(await rollup(t.database.db, link.id, 'destination')).toEqual({});
    expect(await destinationVisitors(link.id)).toEqual([]);
    expect(await rollup(t.database.db, link.id, 'total')).toEqual({ '': 2 });
  });
});
