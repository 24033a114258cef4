import type { ClickEventData, DeliveryEvent, WebhookEvent } from '@common/webhooks/webhook-schemas';
import { CompiledQuery, sql } from 'kysely';
import type { Database } from '../db/database';
import { dialectOf } from '../db/dialect';
import type { EnrichedClick } from '../clicks/enrich';

// The outbox: each event is written, once per webhook that wants it, in the same transaction as
// what it announces, so a crash can lose neither the change nor its announcement, and the
// dispatcher (dispatcher.ts) sends what is here. A link's events are delivery rows at once; a
// click batch's are one row per webhook, made into delivery rows by the dispatcher, which yields
// to redirects (a click writer busy with thousands of clicks a second writes almost nothing
// more). Only called when the in-memory view (subscriptions.ts) says someone may want it: which
// webhooks do is read here, from the tables.

// A click batch's deliveries are thousands of rows at once: on SQLite, statements of a fixed 100
// rows, prepared once; on PostgreSQL, one bound array per column. A 500-row VALUES list built by
// the query builder cost more than the inserts themselves.
const ROWS_PER_INSERT = 100;
const outboxInsert = (count: number) =>
  `insert into webhook_deliveries (webhook_id, event, payload, status, attempts, next_attempt_at, created_at)
   values ${Array(count).fill("(?, ?, ?, 'pending', 0, ?, ?)").join(',')}`;
const fullOutboxInsert = outboxInsert(ROWS_PER_INSERT);

/** The exact body a delivery sends and signs. */
export function payloadOf(type: DeliveryEvent, timestamp: number, data: object): string {
  return JSON.stringify({ type, timestamp: new Date(timestamp).toISOString(), data });
}

interface OutboxRow {
  webhook_id: number;
  event: DeliveryEvent;
  payload: string;
  created_at: number;
}

async function insertOutboxRows(trx: Database, rows: OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  if (dialectOf(trx) === 'sqlite') {
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      const end = Math.min(start + ROWS_PER_INSERT, rows.length);
      const values: Array<string | number> = [];
      for (let i = start; i < end; i++) {
        const row = rows[i]!;
        values.push(row.webhook_id, row.event, row.payload, row.created_at, row.created_at);
      }
      await trx.executeQuery(CompiledQuery.raw(end - start === ROWS_PER_INSERT ? fullOutboxInsert : outboxInsert(end - start), values));
    }
    return;
  }
  await sql`insert into webhook_deliveries (webhook_id, event, payload, status, attempts, next_attempt_at, created_at)
    select w, e, p, 'pending', 0, c, c from unnest(${rows.map((r) => r.webhook_id)}::bigint[], ${rows.map((r) => r.event)}::text[],
      ${rows.map((r) => r.payload)}::text[], ${rows.map((r) => r.created_at)}::bigint[]) as v(w, e, p, c)`.execute(trx);
}

/** Webhooks of these links' workspaces that want the event for each link: [webhook id, link id]. */
async function subscribersOf(trx: Database, event: WebhookEvent, linkIds: number[]): Promise<Array<{ webhookId: number; linkId: number }>> {
  if (linkIds.length === 0) return [];
  const rows = await trx
    .selectFrom('webhooks as w')
    .innerJoin('urls as u', 'u.workspace_id', 'w.workspace_id')
    .select(['w.id as webhookId', 'u.id as linkId'])
    .where('u.id', 'in', linkIds)
    .where('w.enabled', '=', 1)
    .where('w.events', 'like', `%"${event}"%`)
    .where((eb) =>
      eb.or([
        eb('w.filtered', '=', 0),
        eb.exists(eb.selectFrom('webhook_links as l').select('l.url_id').whereRef('l.webhook_id', '=', 'w.id').whereRef('l.url_id', '=', 'u.id')),
      ]),
    )
    .orderBy('w.id')
    .execute();
  return rows.map((row) => ({ webhookId: Number(row.webhookId), linkId: Number(row.linkId) }));
}

/** The links' short addresses and URLs, and the rule or variant destinations the clicks went to. */
async function clickedLinks(trx: Database, linkIds: number[], destinationIds: number[], publicBaseUrl: string) {
  const links = await trx
    .selectFrom('urls')
    .leftJoin('domains', 'domains.id', 'urls.domain_id')
    .select(['urls.id', 'urls.short_url', 'urls.custom_url', 'urls.original_url', 'domains.hostname'])
    .where('urls.id', 'in', linkIds)
    .execute();
  const destinations =
    destinationIds.length === 0 ? [] : await trx.selectFrom('link_destinations').select(['id', 'url']).where('id', 'in', destinationIds).execute();
  const base = publicBaseUrl.replace(/\/+$/, '');
  return {
    links: new Map(
      links.map((link) => [
        Number(link.id),
        { shortLink: `${link.hostname ? `https://${link.hostname}` : base}/${link.custom_url ?? link.short_url}`, url: link.original_url },
      ]),
    ),
    destinations: new Map(destinations.map((row) => [Number(row.id), row.url])),
  };
}

const known = (value: string | null) => (value && value !== 'Unknown' ? value : null);

/**
 * A click batch as its row keeps it for one webhook: the ids of the clicks it wants (runs of
 * consecutive ids: a busy link's flush is one run) and what the clicks table does not hold, as it
 * was when clicked: the links' short addresses and URLs, the rule or variant destinations' URLs,
 * and which clicks were QR scans. The rest of each click is read from its row when the deliveries
 * are made.
 */
interface StoredClickBatch {
  runs: Array<[number, number]>;
  links: Record<string, [string, string]>;
  destinations: Record<string, string>;
  scans: number[];
}

/**
 * Inside the click writer's transaction, `ids` the clicks' rows (in their order): for each webhook
 * that wants some of these clicks, one webhook_click_batches row naming them (the dispatcher makes
 * their deliveries, expandClickBatch). Returns how many events were written.
 */
export async function announceClicks(trx: Database, clicks: EnrichedClick[], ids: number[], publicBaseUrl: string): Promise<number> {
  const linkIds = [...new Set(clicks.map((click) => click.urlId))];
  const subscribers = await subscribersOf(trx, 'link.clicked', linkIds);
  if (subscribers.length === 0) return 0;
  const linksOf = new Map<number, Set<number>>();
  for (const { webhookId, linkId } of subscribers) {
    let wanted = linksOf.get(webhookId);
    if (!wanted) linksOf.set(webhookId, (wanted = new Set()));
    wanted.add(linkId);
  }
  const wantedLinks = [...new Set(subscribers.map((row) => row.linkId))];
  const destinationIds = [...new Set(clicks.map((click) => click.destinationId).filter((id): id is number => id !== undefined && id > 0))];
  const { links, destinations } = await clickedLinks(trx, wantedLinks, destinationIds, publicBaseUrl);
  const now = Date.now();
  let written = 0;
  for (const [webhookId, wanted] of linksOf) {
    const batch: StoredClickBatch = { runs: [], links: {}, destinations: {}, scans: [] };
    let count = 0;
    let run: [number, number] | undefined;
    for (let i = 0; i < clicks.length; i++) {
      const click = clicks[i]!;
      const link = links.get(click.urlId);
      if (!link || !wanted.has(click.urlId)) continue;
      const id = ids[i]!;
      if (run && run[1] === id - 1) run[1] = id;
      else batch.runs.push((run = [id, id]));
      batch.links[click.urlId] ??= [link.shortLink, link.url];
      const destination = click.destinationId ? destinations.get(click.destinationId) : undefined;
      if (destination !== undefined) batch.destinations[click.destinationId!] = destination;
      if (click.scan) batch.scans.push(id);
      count += 1;
    }
    if (count === 0) continue;
    await trx
      .insertInto('webhook_click_batches')
      .values({ webhook_id: webhookId, clicks: JSON.stringify(batch), click_count: count, created_at: now })
      .execute();
    written += count;
  }
  return written;
}

/** A batch's runs are read this many at a time (each is two bound values). */
const RUNS_PER_READ = 200;

/**
 * The dispatcher's side: the webhook's oldest click batch turned into its deliveries (one row per
 * click, its id the event's), in one transaction with the batch's removal, so each click becomes
 * exactly one delivery however many instances try at once. Returns how many; 0 when none waits.
 * A click deleted meanwhile (its link was) is not announced.
 */
export async function expandClickBatch(db: Database, webhookId: number): Promise<number> {
  const postgres = dialectOf(db) === 'postgres';
  return db.transaction().execute(async (trx) => {
    // The webhook's row before its batch's, in the order a deletion of the webhook takes them (it
    // cascades to its batches): taken the other way round, the two deadlocked.
    if (postgres && !(await trx.selectFrom('webhooks').select('id').where('id', '=', webhookId).forKeyShare().executeTakeFirst())) return 0;
    const row = await trx
      .selectFrom('webhook_click_batches')
      .select(['id', 'clicks'])
      .where('webhook_id', '=', webhookId)
      .orderBy('id')
      .limit(1)
      .$if(postgres, (query) => query.forUpdate().skipLocked())
      .executeTakeFirst();
    if (!row) return 0;
    const batch = JSON.parse(row.clicks) as StoredClickBatch;
    const scans = new Set(batch.scans);
    const now = Date.now();
    const rows: OutboxRow[] = [];
    for (let start = 0; start < batch.runs.length; start += RUNS_PER_READ) {
      const runs = batch.runs.slice(start, start + RUNS_PER_READ);
      const clicks = await trx
        .selectFrom('clicks')
        .select(['id', 'url_id', 'created_at', 'destination_id', 'country', 'city', 'device', 'browser', 'os', 'referrer', 'is_bot'])
        .where((eb) => eb.or(runs.map(([from, to]) => eb.between('id', from, to))))
        .orderBy('id')
        .execute();
      for (const click of clicks) {
        const id = Number(click.id);
        const linkId = Number(click.url_id);
        const link = batch.links[linkId];
        if (!link) continue;
        const [shortLink, url] = link;
        const at = Number(click.created_at);
        // Never the IP: what the statistics keep, and no more.
        const data: ClickEventData = {
          linkId,
          shortLink,
          clickedAt: new Date(at).toISOString(),
          destination: (click.destination_id ? batch.destinations[click.destination_id] : undefined) ?? url,
          country: known(click.country),
          city: known(click.city),
          device: click.device,
          browser: click.browser,
          os: click.os,
          referrer: click.referrer,
          bot: click.is_bot === 1,
          qr: scans.has(id),
        };
        rows.push({ webhook_id: webhookId, event: 'link.clicked', payload: payloadOf('link.clicked', at, data), created_at: now });
      }
    }
    await insertOutboxRows(trx, rows);
    await trx.deleteFrom('webhook_click_batches').where('id', '=', row.id).execute();
    return rows.length;
  });
}

/** Inside the transaction that creates, changes or deletes a link: its event for each webhook that wants it. */
export async function announceLinkEvent(trx: Database, event: Exclude<WebhookEvent, 'link.clicked'>, linkId: number, data: object): Promise<number> {
  const subscribers = await subscribersOf(trx, event, [linkId]);
  const now = Date.now();
  const payload = payloadOf(event, now, data);
  await insertOutboxRows(
    trx,
    subscribers.map(({ webhookId }) => ({ webhook_id: webhookId, event, payload, created_at: now })),
  );
  return subscribers.length;
}

/** A ping for the test button, claimed at once by the request that sends it (locked until `lockedUntil`). */
export async function insertPing(db: Database, webhookId: number, lockedUntil: number): Promise<number> {
  const now = Date.now();
  const row = await db
    .insertInto('webhook_deliveries')
    .values({ webhook_id: webhookId, event: 'ping', payload: payloadOf('ping', now, {}), status: 'pending', attempts: 0, next_attempt_at: now, locked_until: lockedUntil, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
