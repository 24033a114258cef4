import { CompiledQuery, type Kysely, sql } from 'kysely';
import { dialectOf } from '../db/dialect';
import type { DB } from '../db/schema';
import type { ClickDetails, EnrichedClick } from './enrich';
import type { DestinationVisitorRow, RollupIncrement } from './rollups';

// Thousands of rows per flush, as one bound parameter per column (PostgreSQL arrays through
// unnest) or one JSON array (SQLite json_each): the statement text stays small and the same, so
// the engines parse it in microseconds, where a 500-row VALUES list costs more to build and
// prepare than to execute. Raw clicks on SQLite are the exception (see insertClicks). The dialect
// branch lives here because only the click writer needs it.

type Db = Kysely<DB>;

const columns = <T>(rows: T[], pick: Array<(row: T) => unknown>) => pick.map((get) => rows.map(get));

// SQLite: raw clicks in statements of 100 rows, prepared once on the writer thread's connection
// (withStatementCache); json_each, which hands each element back as text for each of the nine
// extractions, cost more than the inserts. When clicks share their details (a visitor clicking
// again, many visitors alike), each distinct details object goes once into a temporary table and
// the rows carry only link, time and its number: binding nine values a row, five of them strings,
// costs twice as much. When most clicks have details of their own, filling that table costs more
// than it saves, and the nine values are bound as they are.
// A page with a click a rule or variant sent elsewhere also binds destination_id; other pages
// keep the statements they had.
const CLICKS_PER_INSERT = 100;
const clickColumns = (routed: boolean) =>
  `url_id, created_at, city, country, device, browser, os, referrer, is_bot${routed ? ', destination_id' : ''}`;
const plainRows = (count: number, routed: boolean) =>
  `insert into clicks (${clickColumns(routed)})
   values ${Array(count).fill(routed ? '(?,?,?,?,?,?,?,?,?,?)' : '(?,?,?,?,?,?,?,?,?)').join(',')}`;
// cross join: SQLite keeps the VALUES rows as the outer loop, so ids follow the clicks' order.
const numberedRows = (count: number, routed: boolean) =>
  `insert into clicks (${clickColumns(routed)})
   select v.column1, v.column2, d.city, d.country, d.device, d.browser, d.os, d.referrer, d.is_bot${routed ? ', v.column4' : ''}
   from (values ${Array(count).fill(routed ? '(?,?,?,?)' : '(?,?,?)').join(',')}) as v cross join temp.click_details as d where d.n = v.column3`;
const fullInserts = {
  plain: [plainRows(CLICKS_PER_INSERT, false), plainRows(CLICKS_PER_INSERT, true)],
  numbered: [numberedRows(CLICKS_PER_INSERT, false), numberedRows(CLICKS_PER_INSERT, true)],
};

/** clicks.destination_id: null for the link's own URL (0) and for a plain link's click. */
const destinationColumn = (click: EnrichedClick) => (click.destinationId ? click.destinationId : null);
const anyRouted = (clicks: EnrichedClick[], start = 0, end = clicks.length) => {
  for (let i = start; i < end; i++) if (clicks[i]!.destinationId) return true;
  return false;
};

async function insertClicksSqlite(db: Db, clicks: EnrichedClick[]): Promise<void> {
  const numbers = new Map<ClickDetails, number>();
  const distinct: ClickDetails[] = [];
  for (const { details } of clicks) {
    if (numbers.has(details)) continue;
    numbers.set(details, distinct.length);
    distinct.push(details);
  }
  const shared = distinct.length * 2 <= clicks.length;
  if (shared) {
    await sql`create temp table if not exists click_details (n integer primary key, city text, country text,
      device text, browser text, os text, referrer text, is_bot integer)`.execute(db);
    await sql`delete from temp.click_details`.execute(db);
    const rows = JSON.stringify(distinct.map((d) => [d.city, d.country, d.device, d.browser, d.os, d.referrer, d.isBot ? 1 : 0]));
    await sql`insert into temp.click_details
      select j.key, j.value->>0, j.value->>1, j.value->>2, j.value->>3, j.value->>4, j.value->>5, j.value->>6
      from json_each(${rows}) as j`.execute(db);
  }
  for (let start = 0; start < clicks.length; start += CLICKS_PER_INSERT) {
    const end = Math.min(start + CLICKS_PER_INSERT, clicks.length);
    const routed = anyRouted(clicks, start, end);
    const values: Array<string | number | null> = [];
    for (let i = start; i < end; i++) {
      const click = clicks[i]!;
      const { urlId, at, details: d } = click;
      if (shared) values.push(urlId, at, numbers.get(d)!);
      else values.push(urlId, at, d.city, d.country, d.device, d.browser, d.os, d.referrer, d.isBot ? 1 : 0);
      if (routed) values.push(destinationColumn(click));
    }
    const full = end - start === CLICKS_PER_INSERT;
    const rows = shared ? numberedRows : plainRows;
    const text = full ? fullInserts[shared ? 'numbered' : 'plain'][routed ? 1 : 0]! : rows(end - start, routed);
    await db.executeQuery(CompiledQuery.raw(text, values));
  }
}

/**
 * With `ids`, returns the rows' ids in the clicks' order (the webhooks' click batches name them):
 * on SQLite the transaction's rows follow each other, so the last id says them all; on PostgreSQL
 * the sequence is drawn row after row as unnest yields them, so sorted ids follow the clicks too.
 */
export async function insertClicks(db: Db, clicks: EnrichedClick[], options: { ids: true }): Promise<number[]>;
export async function insertClicks(db: Db, clicks: EnrichedClick[]): Promise<void>;
export async function insertClicks(db: Db, clicks: EnrichedClick[], options?: { ids: true }): Promise<number[] | void> {
  if (dialectOf(db) === 'sqlite') {
    await insertClicksSqlite(db, clicks);
    if (!options) return;
    const { rows } = await db.executeQuery<{ id: number }>(CompiledQuery.raw('select last_insert_rowid() as id'));
    const last = Number(rows[0]!.id);
    return Array.from({ length: clicks.length }, (_, i) => last - clicks.length + 1 + i);
  }
  const returning = options ? sql` returning id` : sql``;
  const [urlId, at, city, country, device, browser, os, referrer, isBot] = columns(clicks, [
    (c) => c.urlId,
    (c) => c.at,
    (c) => c.details.city,
    (c) => c.details.country,
    (c) => c.details.device,
    (c) => c.details.browser,
    (c) => c.details.os,
    (c) => c.details.referrer,
    (c) => (c.details.isBot ? 1 : 0),
  ]);
  if (!anyRouted(clicks)) {
    const { rows } = await sql<{ id: number }>`insert into clicks (url_id, created_at, city, country, device, browser, os, referrer, is_bot)
      select * from unnest(${urlId}::bigint[], ${at}::bigint[], ${city}::text[], ${country}::text[], ${device}::text[],
        ${browser}::text[], ${os}::text[], ${referrer}::text[], ${isBot}::smallint[])${returning}`.execute(db);
    return options ? sortedIds(rows) : undefined;
  }
  const { rows } = await sql<{ id: number }>`insert into clicks (url_id, created_at, city, country, device, browser, os, referrer, is_bot, destination_id)
    select * from unnest(${urlId}::bigint[], ${at}::bigint[], ${city}::text[], ${country}::text[], ${device}::text[],
      ${browser}::text[], ${os}::text[], ${referrer}::text[], ${isBot}::smallint[], ${clicks.map(destinationColumn)}::bigint[])${returning}`.execute(db);
  return options ? sortedIds(rows) : undefined;
}

const sortedIds = (rows: Array<{ id: number | string }>) => rows.map((row) => Number(row.id)).sort((a, b) => a - b);

export interface VisitorRow {
  url_id: number;
  day: number;
  visitor_hash: string;
}

/** Inserts the visitors not seen yet that day and returns those (the new unique visitors). */
export async function insertNewVisitors(db: Db, visitors: VisitorRow[]): Promise<Array<{ url_id: number; day: number }>> {
  if (visitors.length === 0) return [];
  if (dialectOf(db) === 'sqlite') {
    const rows = JSON.stringify(visitors.map((v) => [v.url_id, v.day, v.visitor_hash]));
    // "where true" tells SQLite's parser the ON CONFLICT belongs to the INSERT, not a join.
    const result = await sql<{ url_id: number; day: number }>`insert into click_visitors (url_id, day, visitor_hash)
      select j.value->>0, j.value->>1, j.value->>2 from json_each(${rows}) as j where true
      on conflict do nothing returning url_id, day`.execute(db);
    return result.rows;
  }
  const result = await sql<{ url_id: number; day: number }>`insert into click_visitors (url_id, day, visitor_hash)
    select * from unnest(${visitors.map((v) => v.url_id)}::bigint[], ${visitors.map((v) => v.day)}::int[],
      ${visitors.map((v) => v.visitor_hash)}::text[])
    on conflict do nothing returning url_id, day`.execute(db);
  return result.rows;
}

/** Adds each visitor's clicks on a destination that day, a row for a visitor not seen there yet. */
export async function upsertDestinationVisitors(db: Db, rows: DestinationVisitorRow[]): Promise<void> {
  if (rows.length === 0) return;
  if (dialectOf(db) === 'sqlite') {
    const json = JSON.stringify(rows.map((r) => [r.url_id, r.destination_id, r.day, r.visitor_hash, r.clicks]));
    await sql`insert into click_destination_visitors (url_id, destination_id, day, visitor_hash, clicks)
      select j.value->>0, j.value->>1, j.value->>2, j.value->>3, j.value->>4 from json_each(${json}) as j where true
      on conflict (url_id, destination_id, day, visitor_hash)
      do update set clicks = click_destination_visitors.clicks + excluded.clicks`.execute(db);
    return;
  }
  await sql`insert into click_destination_visitors (url_id, destination_id, day, visitor_hash, clicks)
    select * from unnest(${rows.map((r) => r.url_id)}::bigint[], ${rows.map((r) => r.destination_id)}::bigint[],
      ${rows.map((r) => r.day)}::int[], ${rows.map((r) => r.visitor_hash)}::text[], ${rows.map((r) => r.clicks)}::int[])
    on conflict (url_id, destination_id, day, visitor_hash)
    do update set clicks = click_destination_visitors.clicks + excluded.clicks`.execute(db);
}

export async function upsertRollups(db: Db, increments: RollupIncrement[]): Promise<void> {
  if (increments.length === 0) return;
  if (dialectOf(db) === 'sqlite') {
    const rows = JSON.stringify(increments.map((r) => [r.url_id, r.day, r.dimension, r.value, r.clicks]));
    await sql`insert into click_rollups (url_id, day, dimension, value, clicks)
      select j.value->>0, j.value->>1, j.value->>2, j.value->>3, j.value->>4 from json_each(${rows}) as j where true
      on conflict (url_id, dimension, day, value) do update set clicks = click_rollups.clicks + excluded.clicks`.execute(db);
    return;
  }
  await sql`insert into click_rollups (url_id, day, dimension, value, clicks)
    select * from unnest(${increments.map((r) => r.url_id)}::bigint[], ${increments.map((r) => r.day)}::int[],
      ${increments.map((r) => r.dimension)}::text[], ${increments.map((r) => r.value)}::text[],
      ${increments.map((r) => r.clicks)}::bigint[])
    on conflict (url_id, dimension, day, value) do update set clicks = click_rollups.clicks + excluded.clicks`.execute(db);
}
