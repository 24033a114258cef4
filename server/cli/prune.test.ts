import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents } from '../redirect/redirect.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { seedLinks, runCli } from './cli.test-support';
import { pruneClicks } from './prune';

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(testDialects)('prune (%s)', (dialect) => {
  let t: TestApp;
  let seeded: Awaited<ReturnType<typeof seedLinks>>;

  beforeAll(async () => {
    t = await createTestApp(dialect, { LINKS_PER_HOUR: '0' });
    seeded = await seedLinks(t.app, 2);
    for (const link of seeded.links) {
      for (let visit = 0; visit < 6; visit++) {
        await t.app.inject({ method: 'GET', url: `/${link.shortCode}`, headers: { 'user-agent': agents.android }, remoteAddress: '8.8.8.8' });
      }
    }
    await t.app.appContext.clickWriter.flush();
  });
  afterAll(() => t.close());

  it('removes raw clicks older than the retention, and leaves statistics, counts and totals as they were', async () => {
    const db = t.database.db;
    // Four clicks of each link made 40 days old; two of each stay recent.
    const ids = (await db.selectFrom('clicks').select(['id', 'url_id']).orderBy('id').execute()) as Array<{ id: number; url_id: number }>;
    const old = seeded.links.flatMap((link) => ids.filter((row) => row.url_id === link.id).slice(0, 4).map((row) => Number(row.id)));
    await db.updateTable('clicks').set((eb) => ({ created_at: eb('created_at', '-', 40 * DAY_MS) })).where('id', 'in', old).execute();

    const view = async () => {
      const list = await t.app.inject({ method: 'GET', url: '/api/links', headers: { cookie: seeded.cookie } });
      const stats = await Promise.all(
        seeded.links.map(async (link) => (await t.app.inject({ method: 'GET', url: `/api/links/${link.id}/stats`, headers: { cookie: seeded.cookie } })).json()),
      );
      const rollups = await db.selectFrom('click_rollups').selectAll().orderBy(['url_id', 'day', 'dimension', 'value']).execute();
      return { list: list.json(), stats, rollups };
    };
    const before = await view();

    // Three at a time: the old clicks of the two links are interleaved with recent ones by id.
    expect(await pruneClicks(db, 30, Date.now(), 3)).toBe(8);
    const left = await db.selectFrom('clicks').select('id').orderBy('id').execute();
    expect(left.map((row) => Number(row.id))).toEqual(ids.map((row) => Number(row.id)).filter((id) => !old.includes(id)));
    expect(await view()).toEqual(before);
    expect((before.list as { totals: { clicks: number } }).totals.clicks).toBe(12);

    // Nothing older left: a second run removes nothing.
    expect(await pruneClicks(db, 30)).toBe(0);
  });

  it.runIf(dialect === 'sqlite')('runs from the command line beside the serving instance, and asks for CLICK_RETENTION_DAYS', async () => {
    const unset = await runCli(['prune'], { DATA_DIR: t.config.dataDir });
    expect(unset.code).toBe(1);
    expect(unset.output).toContain('Define CLICK_RETENTION_DAYS');

    const db = t.database.db;
    await db.updateTable('clicks').set((eb) => ({ created_at: eb('created_at', '-', 10 * DAY_MS) })).execute();
    const pruned = await runCli(['prune'], { DATA_DIR: t.config.dataDir, CLICK_RETENTION_DAYS: '7' });
    expect(pruned.output).toContain('4 clics de hace más de 7 días borrados');
    expect(pruned.code).toBe(0);
    expect(await db.selectFrom('clicks').select('id').execute()).toEqual([]);
  });
});
