import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickCount, insertLink, rollup } from '../redirect/redirect.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { pruneClickWriterState, writeClickBatch } from './click-batch';
import type { ClickDetails } from './enrich';
import { DAY_MS, dayOf } from './visitors';

describe.each(testDialects)('a batch of clicks written on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  // SQLite binds details per row when most clicks have their own, and through a table of the
  // distinct ones when they are shared: both ways must store the same rows.
  it.each([
    ['most clicks with details of their own', 6],
    ['most clicks sharing their details', 250],
  ])('stores every row of a batch longer than one insert statement: %s', async (_, sharedCount) => {
    const link = await insertLink(t.database.db);
    const at = Date.now();
    const detailsFor = (i: number): ClickDetails => ({
      day: Math.floor(at / 86_400_000),
      country: i % 2 ? 'ES' : 'PE',
      city: `Ciudad ${i % 3}`,
      device: i % 2 ? 'mobile' : 'desktop',
      browser: i === 0 ? null : 'Firefox',
      os: 'Linux',
      referrer: i === 249 ? 'example.com' : null,
      isBot: i % 50 === 7,
      visitorHash: `v${i % 10}`,
    });
    // 250: two full statements of 100 and a shorter last one (SQLite). Among the first
    // `sharedCount` clicks, details alike are one object, as the enricher hands them out (250: about
    // 40 distinct objects; 6: nearly every click has its own).
    const alike = new Map<string, ClickDetails>();
    const sharedDetails = (i: number) => {
      const key = JSON.stringify(detailsFor(i));
      if (!alike.has(key)) alike.set(key, detailsFor(i));
      return alike.get(key)!;
    };
    // The second statement's clicks went where a rule sent them (even: destination i; odd: the
    // link's own URL); the others are a plain link's, and their statements stay as they were.
    const routed = (i: number) => i >= 100 && i < 200;
    const clicks = Array.from({ length: 250 }, (_, i) => ({
      urlId: link.id,
      at: at + i,
      details: i < sharedCount ? sharedDetails(i) : detailsFor(i),
      ...(routed(i) ? { destinationId: i % 2 ? 0 : i } : {}),
    }));
    expect(await writeClickBatch(t.database.db, clicks)).toBe(250);

    const rows = await t.database.db
      .selectFrom('clicks')
      .select(['created_at', 'country', 'city', 'device', 'browser', 'referrer', 'is_bot', 'destination_id'])
      .where('url_id', '=', link.id)
      .orderBy('id')
      .execute();
    expect(rows).toHaveLength(250);
    expect(rows.map((row) => Number(row.created_at))).toEqual(clicks.map((click) => click.at));
    expect(rows[0]).toMatchObject({ country: 'PE', city: 'Ciudad 0', device: 'desktop', browser: null, referrer: null });
    expect(rows[249]).toMatchObject({ country: 'ES', city: 'Ciudad 0', device: 'mobile', browser: 'Firefox', referrer: 'example.com' });
    expect(rows.filter((row) => Number(row.is_bot) === 1)).toHaveLength(5); // 7, 57, 107, 157, 207
    expect(rows.map((row) => (row.destination_id === null ? null : Number(row.destination_id)))).toEqual(
      clicks.map((_, i) => (routed(i) && i % 2 === 0 ? i : null)),
    );

    expect(await clickCount(t.database.db, link.id)).toBe(245);
    expect(await rollup(t.database.db, link.id, 'bots')).toEqual({ '': 5 });
    expect(await rollup(t.database.db, link.id, 'device')).toEqual({ mobile: 120, desktop: 125 });
    expect(await rollup(t.database.db, link.id, 'visitors')).toEqual({ '': 10 });
    // Human clicks only: 107 and 157 were bots (odd: the link's own URL).
    const destinations = await rollup(t.database.db, link.id, 'destination');
    expect(destinations['']).toBe(48);
    expect(Object.keys(destinations)).toHaveLength(51);
    expect(destinations['100']).toBe(1);
  });
  const threeClicks = (urlId: number, at: number) =>
    Array.from({ length: 3 }, (_, i) => ({
      urlId,
      at: at + i,
      details: { day: dayOf(at), country: 'ES', city: 'Madrid', device: 'mobile', browser: 'Firefox', os: 'Android', referrer: null, isBot: false, visitorHash: `v${i}` } satisfies ClickDetails,
    }));
  const rowsOf = async (urlId: number) =>
    (await t.database.db.selectFrom('clicks').select('id').where('url_id', '=', urlId).execute()).length;

  it('a batch sent again under its id (written, its answer lost on the way back) is stored once', async () => {
    const link = await insertLink(t.database.db);
    const batch = threeClicks(link.id, Date.now());
    expect(await writeClickBatch(t.database.db, batch, 'lote-1')).toBe(3);
    expect(await writeClickBatch(t.database.db, batch, 'lote-1')).toBe(0);
    expect(await rowsOf(link.id)).toBe(3);
    expect(await clickCount(t.database.db, link.id)).toBe(3);
    expect(await rollup(t.database.db, link.id, 'device')).toEqual({ mobile: 3 });
    // Another id is another batch.
    expect(await writeClickBatch(t.database.db, batch, 'lote-2')).toBe(3);
    expect(await clickCount(t.database.db, link.id)).toBe(6);
  });

  it('forgets the ids of batches written before yesterday, with the visitor hashes', async () => {
    const today = dayOf(Date.now());
    await t.database.db
      .insertInto('click_batches')
      .values([
        { id: 'viejo', written_at: (today - 2) * DAY_MS },
        { id: 'de-ayer', written_at: (today - 1) * DAY_MS + 1 },
      ])
      .execute();
    await pruneClickWriterState(t.database.db, today);
    const left = await t.database.db.selectFrom('click_batches').select('id').where('id', 'in', ['viejo', 'de-ayer']).execute();
    expect(left.map((row) => row.id)).toEqual(['de-ayer']);
  });
});
