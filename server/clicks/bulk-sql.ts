import { CompiledQuery, type Kysely, sql } from 'kysely';
import { dialectOf } from '../db/dialect';
import type { DB } from '../db/schema';
import type { EnrichedClick } from './enrich';
import type { RollupIncrement } from './rollups';

// Thousands of rows per flush, as one bound parameter per column (PostgreSQL arrays through
// unnest) or one JSON array (SQLite json_each): the statement text stays small and the same, so
// the engines parse it in microseconds, where a 500-row VALUES list costs more to build and
// prepare than to execute. Raw clicks on SQLite are the exception (see insertClicks). The dialect
// branch lives here because only the click writer needs it.

type Db = Kysely<DB>;

const columns = <T>(rows: T[], pick: Array<(row: T) => unknown>) => pick.map((get) => rows.map(get));

// SQLite: raw clicks go in through a fixed 100-row VALUES statement, which the writer thread's
// connection prepares once (withStatementCache). json_each hands each element back as text for
// each of the nine extractions, and SQLite's JSON functions took a third of that thread's time.
const CLICKS_PER_INSERT = 100; // 900 bound parameters, well under SQLite's limit of 32,766
const clickRows = (count: number) =>
  `insert into clicks (url_id, created_at, city, country, device, browser, os, referrer, is_bot) values ${Array(count).fill('(?,?,?,?,?,?,?,?,?)').join(',')}`;
const fullClickInsert = clickRows(CLICKS_PER_INSERT);

export async function insertClicks(db: Db, clicks: EnrichedClick[]): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    for (let start = 0; start < clicks.length; start += CLICKS_PER_INSERT) {
      const chunk = clicks.slice(start, start + CLICKS_PER_INSERT);
      const values = chunk.flatMap(({ urlId, at, details: d }) => [
        urlId,
        at,
        d.city,
        d.country,
        d.device,
        d.browser,
        d.os,
        d.referrer,
        d.isBot ? 1 : 0,
      ]);
      const text = chunk.length === CLICKS_PER_INSERT ? fullClickInsert : clickRows(chunk.length);
      await db.executeQuery(CompiledQuery.raw(text, values));
    }
    return;
  }
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
  await sql`insert into clicks (url_id, created_at, city, country, device, browser, os, referrer, is_bot)
    select * from unnest(${urlId}::bigint[], ${at}::bigint[], ${city}::text[], ${country}::text[], ${device}::text[],
      ${browser}::text[], ${os}::text[], ${referrer}::text[], ${isBot}::smallint[])`.execute(db);
}

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
