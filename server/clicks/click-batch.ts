import type { Database } from '../db/database';
import type { NewClickRow } from '../db/schema';
import type { EnrichedClick } from './enrich';
import { humanClicksPerLink, rollupIncrements } from './rollups';

// Rows per statement: well under SQLite's and PostgreSQL's limits on bound parameters.
const ROWS_PER_STATEMENT = 500;

function chunks<T>(items: T[], size = ROWS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function clickRow(click: EnrichedClick): NewClickRow {
  return {
    url_id: click.urlId,
    created_at: click.at,
    city: click.city,
    country: click.country,
    device: click.device,
    browser: click.browser,
    os: click.os,
    referrer: click.referrer,
    is_bot: click.isBot ? 1 : 0,
  };
}

/**
 * One transaction: the raw rows, each link's click_count, today's unique visitors and the daily
 * roll-ups, so the counts always agree with the rows. Returns how many clicks were written;
 * clicks of a link deleted meanwhile are left out (its rows would be deleted with it anyway).
 */
export async function writeClickBatch(db: Database, clicks: EnrichedClick[]): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const ids = [...new Set(clicks.map((click) => click.urlId))];
    const found = await trx.selectFrom('urls').select('id').where('id', 'in', ids).execute();
    const existing = new Set(found.map((row) => Number(row.id)));
    const kept = clicks.filter((click) => existing.has(click.urlId));
    if (kept.length === 0) return 0;

    for (const chunk of chunks(kept)) await trx.insertInto('clicks').values(chunk.map(clickRow)).execute();

    // Same order in every transaction, so concurrent writers (several instances) cannot deadlock.
    const perLink = [...humanClicksPerLink(kept)].sort(([a], [b]) => a - b);
    for (const [id, count] of perLink) {
      await trx
        .updateTable('urls')
        .set((eb) => ({ click_count: eb('click_count', '+', count) }))
        .where('id', '=', id)
        .execute();
    }

    const visitors = new Map<string, { url_id: number; day: number; visitor_hash: string }>();
    for (const click of kept) {
      if (click.isBot) continue;
      visitors.set(`${click.urlId}:${click.day}:${click.visitorHash}`, {
        url_id: click.urlId,
        day: click.day,
        visitor_hash: click.visitorHash,
      });
    }
    const newVisitors: Array<{ urlId: number; day: number }> = [];
    for (const chunk of chunks([...visitors.values()])) {
      const inserted = await trx
        .insertInto('click_visitors')
        .values(chunk)
        .onConflict((oc) => oc.doNothing())
        .returning(['url_id', 'day'])
        .execute();
      for (const row of inserted) newVisitors.push({ urlId: Number(row.url_id), day: Number(row.day) });
    }

    const increments = rollupIncrements(kept, newVisitors).sort(
      (a, b) =>
        a.url_id - b.url_id ||
        a.dimension.localeCompare(b.dimension) ||
        a.day - b.day ||
        (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
    );
    for (const chunk of chunks(increments)) {
      await trx
        .insertInto('click_rollups')
        .values(chunk)
        .onConflict((oc) =>
          oc
            .columns(['url_id', 'dimension', 'day', 'value'])
            .doUpdateSet((eb) => ({ clicks: eb('click_rollups.clicks', '+', eb.ref('excluded.clicks')) })),
        )
        .execute();
    }
    return kept.length;
  });
}

/** Visitors are only needed while their day can still get clicks. */
export async function pruneOldVisitors(db: Database, today: number): Promise<void> {
  await db.deleteFrom('click_visitors').where('day', '<', today - 1).execute();
}
