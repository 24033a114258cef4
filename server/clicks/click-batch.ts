import type { Database } from '../db/database';
import { insertClicks, insertNewVisitors, upsertDestinationVisitors, upsertRollups, type VisitorRow } from './bulk-sql';
import type { EnrichedClick } from './enrich';
import {
  clicksPerLinkAndDetails,
  humanClicksPerDestination,
  humanClicksPerLink,
  humanScansPerLinkAndDay,
  limitedClicksPerLink,
  rollupIncrements,
} from './rollups';
import { DAY_MS } from './visitors';
import { announceClicks } from '../webhooks/outbox';

/** Set when a webhook may want these clicks: their link.clicked events go in the same transaction. */
export interface ClickAnnouncement {
  publicBaseUrl: string;
}

/**
 * One transaction: the raw rows, each link's click_count (and limit_used, for places of a click
 * limit counted in memory), today's unique visitors (and, for links with rules or variants, each
 * destination's visitors with their clicks) and the daily roll-ups, so the counts always agree with the rows. Returns how many clicks were written;
 * clicks of a link deleted meanwhile are left out (its rows would be deleted with it anyway). With
 * `announce`, the link.clicked events of webhooks that want them (server/webhooks/outbox.ts).
 */
export async function writeClickBatch(db: Database, clicks: EnrichedClick[], batchId?: string, announce?: ClickAnnouncement): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // The batch's id first (a write, as below): a batch already written, whose answer was lost on
    // the way back, is sent again under the same id and writes nothing the second time.
    if (batchId !== undefined) {
      const claimed = await trx
        .insertInto('click_batches')
        .values({ id: batchId, written_at: Date.now() })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!claimed) return 0;
    }
    // Each link's click_count first, in id order: the fixed order keeps concurrent PostgreSQL
    // writers from deadlocking, and the rows it returns are the links that still exist. (SQLite's
    // transactions begin IMMEDIATE, waiting for the write lock: see WritingSqliteDialect.)
    const humans = humanClicksPerLink(clicks);
    const limited = limitedClicksPerLink(clicks);
    const scans = humanScansPerLinkAndDay(clicks);
    const scansPerLink = new Map<number, number>();
    for (const { urlId, count } of scans) scansPerLink.set(urlId, (scansPerLink.get(urlId) ?? 0) + count);
    const ids = [...new Set(clicks.map((click) => click.urlId))].sort((a, b) => a - b);
    const existing = new Set<number>();
    for (const id of ids) {
      const count = humans.get(id) ?? 0;
      const places = limited.get(id) ?? 0;
      const scanned = scansPerLink.get(id) ?? 0;
      const row = await trx
        .updateTable('urls')
        // limit_used and scan_count only when the batch has some: the statement for plain clicks stays as it was.
        .set((eb) => ({
          click_count: eb('click_count', '+', count),
          ...(places > 0 ? { limit_used: eb('limit_used', '+', places) } : {}),
          ...(scanned > 0 ? { scan_count: eb('scan_count', '+', scanned) } : {}),
        }))
        .where('id', '=', id)
        .returning('id')
        .executeTakeFirst();
      if (row) existing.add(id);
    }
    const kept = clicks.filter((click) => existing.has(click.urlId));
    if (kept.length === 0) return 0;

    const clickIds = announce ? await insertClicks(trx, kept, { ids: true }) : await insertClicks(trx, kept);

    const groups = clicksPerLinkAndDetails(kept);
    const visitors = new Map<string, VisitorRow>();
    for (const [urlId, perDetails] of groups) {
      for (const { isBot, day, visitorHash } of perDetails.keys()) {
        if (isBot) continue;
        visitors.set(`${urlId}:${day}:${visitorHash}`, { url_id: urlId, day, visitor_hash: visitorHash });
      }
    }
    const inserted = await insertNewVisitors(trx, [...visitors.values()]);
    const newVisitors = inserted.map((row) => ({ urlId: Number(row.url_id), day: Number(row.day) }));

    // Kept while the statistics may ask for them: they are what an A/B test compares (not pruned).
    // In key order, as the roll-ups below, so concurrent PostgreSQL writers take row locks alike.
    const destinations = humanClicksPerDestination(kept).sort(
      (a, b) =>
        a.url_id - b.url_id ||
        a.destination_id - b.destination_id ||
        a.day - b.day ||
        (a.visitor_hash < b.visitor_hash ? -1 : a.visitor_hash > b.visitor_hash ? 1 : 0),
    );
    await upsertDestinationVisitors(trx, destinations);

    const keptScans = scans.filter((scan) => existing.has(scan.urlId));
    const increments = rollupIncrements(groups, newVisitors, keptScans, destinations).sort(
      (a, b) =>
        a.url_id - b.url_id ||
        (a.dimension < b.dimension ? -1 : a.dimension > b.dimension ? 1 : 0) ||
        a.day - b.day ||
        (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
    );
    await upsertRollups(trx, increments);
    // The webhooks' outbox: a click is announced if and only if it is counted.
    if (announce) await announceClicks(trx, kept, clickIds!, announce.publicBaseUrl);
    return kept.length;
  });
}

/**
 * Visitors are only needed while their day can still get clicks; a batch's id only while the
 * writer may still send it again (seconds).
 */
export async function pruneClickWriterState(db: Database, today: number): Promise<void> {
  await db.deleteFrom('click_visitors').where('day', '<', today - 1).execute();
  await db.deleteFrom('click_batches').where('written_at', '<', (today - 1) * DAY_MS).execute();
}
