import type { ClickEventData, DeliveryEvent, WebhookEvent } from '@common/webhooks/webhook-schemas';
import { CompiledQuery, sql } from 'kysely';
import type { Database } from '../db/database';
import { dialectOf } from '../db/dialect';
import type { EnrichedClick } from '../clicks/enrich';

// The outbox: each event is written, once per webhook that wants it, in the same transaction as
// what it announces, so a crash can lose neither the change nor its announcement, and the
// dispatcher (dispatcher.ts) sends what is here. Only called when the in-memory view
// (subscriptions.ts) says someone may want it: which webhooks do is read here, from the tables.

// A busy link's clicks are thousands of rows a flush, written beside the clicks themselves: built
// as the click writer builds its own (server/clicks/bulk-sql.ts): on SQLite, statements of a fixed
// 100 rows prepared once on the writer's connection; on PostgreSQL, one bound array per column.
// A 500-row VALUES list built by the query builder cost more than the inserts themselves.
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
 * Inside the click writer's transaction: a link.clicked event per (click, webhook that wants it).
 * Returns how many were written.
 */
export async function announceClicks(trx: Database, clicks: EnrichedClick[], publicBaseUrl: string): Promise<number> {
  const linkIds = [...new Set(clicks.map((click) => click.urlId))];
  const subscribers = await subscribersOf(trx, 'link.clicked', linkIds);
  if (subscribers.length === 0) return 0;
  const webhooksOf = new Map<number, number[]>();
  for (const { webhookId, linkId } of subscribers) webhooksOf.set(linkId, [...(webhooksOf.get(linkId) ?? []), webhookId]);
  const destinationIds = [...new Set(clicks.map((click) => click.destinationId).filter((id): id is number => id !== undefined && id > 0))];
  const { links, destinations } = await clickedLinks(trx, [...webhooksOf.keys()], destinationIds, publicBaseUrl);
  const now = Date.now();
  const rows: OutboxRow[] = [];
  for (const click of clicks) {
    const webhooks = webhooksOf.get(click.urlId);
    const link = links.get(click.urlId);
    if (!webhooks || !link) continue;
    const { details } = click;
    // Never the IP: what the statistics keep, and no more.
    const data: ClickEventData = {
      linkId: click.urlId,
      shortLink: link.shortLink,
      clickedAt: new Date(click.at).toISOString(),
      destination: (click.destinationId ? destinations.get(click.destinationId) : undefined) ?? link.url,
      country: known(details.country),
      city: known(details.city),
      device: details.device,
      browser: details.browser,
      os: details.os,
      referrer: details.referrer,
      bot: details.isBot,
      qr: click.scan === true,
    };
    const payload = payloadOf('link.clicked', click.at, data);
    for (const webhookId of webhooks) rows.push({ webhook_id: webhookId, event: 'link.clicked', payload, created_at: now });
  }
  await insertOutboxRows(trx, rows);
  return rows.length;
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
