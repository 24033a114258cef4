import { sql } from 'kysely';
import type { RollupDimension } from '../db/schema';
import type { DatabaseReader } from '../db/database-reader';

// Statistics read the daily roll-ups only (a few rows per day and value), never the raw clicks:
// a link with a million clicks answers as fast as one with ten.

export interface DayRange {
  /** UTC days since the epoch, both included; from undefined = since the first roll-up. */
  from?: number | undefined;
  to: number;
}

// Listed rather than "not in (total, visitors)": the primary key (url_id, dimension, day, value)
// is then probed per dimension and read only within the days asked for.
const BREAKDOWNS: RollupDimension[] = ['country', 'city', 'device', 'browser', 'os', 'referrer', 'bots', 'destination'];

/** Each dimension's values and their clicks over a range. */
export type DimensionSums = Map<RollupDimension, Map<string, number>>;

/**
 * Clicks per (dimension, value) over the range, every dimension in one pass over the link's rows.
 * Straight into one map per dimension, which the ranking and the cache use as they are: a link
 * clicked from everywhere has tens of thousands of cities, and a copy of the rows and a second map
 * of them were alive at once, long enough for V8 to move them to the old generation and grow the
 * reader thread's heap. (better-sqlite3's iterate() instead of the rows kept less still, but cost a
 * small read about a tenth more: it crosses into SQLite once a row.)
 */
export async function sumRollups(reader: DatabaseReader, urlId: number, range: DayRange): Promise<DimensionSums> {
  let query = reader.db
    .selectFrom('click_rollups')
    .select((eb) => ['dimension', 'value', eb.fn.sum<number | string>('clicks').as('clicks')])
    .where('url_id', '=', urlId)
    .where('day', '<=', range.to)
    .where('dimension', 'in', BREAKDOWNS)
    .groupBy(['dimension', 'value']);
  if (range.from !== undefined) query = query.where('day', '>=', range.from);
  const sums: DimensionSums = new Map();
  for (const { dimension, value, clicks } of await reader.rows(query)) {
    let values = sums.get(dimension);
    if (!values) sums.set(dimension, (values = new Map()));
    // One row per (dimension, value): the query groups by both. pg answers sum(bigint) as numeric, a string.
    values.set(value, Number(clicks));
  }
  return sums;
}

/**
 * Each day's clicks of people ('total') and of bots ('bots') over the range, as one string. Every
 * click adds to one of the two, and nothing else writes a day's roll-ups: while the string stays
 * the same, so does every breakdown of those days. Two rows a day, read by the primary key.
 */
export async function clickCountsStamp(reader: DatabaseReader, urlId: number, range: DayRange): Promise<string> {
  let query = reader.db
    .selectFrom('click_rollups')
    .select(['day', 'dimension', 'clicks'])
    .where('url_id', '=', urlId)
    .where('dimension', 'in', ['total', 'bots'])
    .where('day', '<=', range.to);
  if (range.from !== undefined) query = query.where('day', '>=', range.from);
  const rows = await reader.rows(query);
  return rows
    .map((row) => `${row.day}:${row.dimension}:${row.clicks}`)
    .sort()
    .join(' ');
}

export interface DestinationVisitors {
  /** link_destinations id; 0 for the link's own URL. */
  destinationId: number;
  /** Unique visitors per day, summed over the range. */
  visitors: number;
  /** Of those, the ones with two clicks or more that day. */
  returning: number;
}

/**
 * Each destination's visitors over the range, from click_destination_visitors (one row per
 * visitor, destination and day): read only for a link whose roll-ups show routed clicks.
 */
export async function destinationVisitors(reader: DatabaseReader, urlId: number, range: DayRange): Promise<DestinationVisitors[]> {
  let query = reader.db
    .selectFrom('click_destination_visitors')
    .select((eb) => [
      'destination_id',
      eb.fn.countAll<number | string>().as('visitors'),
      sql<number | string>`sum(case when clicks >= 2 then 1 else 0 end)`.as('returned'),
    ])
    .where('url_id', '=', urlId)
    .where('day', '<=', range.to)
    .groupBy('destination_id');
  if (range.from !== undefined) query = query.where('day', '>=', range.from);
  const rows = await reader.rows(query);
  return rows.map((row) => ({ destinationId: Number(row.destination_id), visitors: Number(row.visitors), returning: Number(row.returned) }));
}

export interface DayTotals {
  day: number;
  clicks: number;
  visitors: number;
  /** Human visits from the link's QR code: a part of clicks. */
  scans: number;
}

/** Human clicks, unique visitors and QR scans of each day that has any, oldest first. */
export async function dailyTotals(reader: DatabaseReader, urlId: number, range: DayRange): Promise<DayTotals[]> {
  let query = reader.db
    .selectFrom('click_rollups')
    .select(['day', 'dimension', 'clicks'])
    .where('url_id', '=', urlId)
    .where('dimension', 'in', ['total', 'visitors', 'scans'])
    .where('day', '<=', range.to);
  if (range.from !== undefined) query = query.where('day', '>=', range.from);
  const rows = await reader.rows(query);
  // The three dimensions have the single value '': one row per day each, no grouping needed.
  const byDay = new Map<number, DayTotals>();
  for (const row of rows) {
    const day = Number(row.day);
    let totals = byDay.get(day);
    if (!totals) byDay.set(day, (totals = { day, clicks: 0, visitors: 0, scans: 0 }));
    if (row.dimension === 'total') totals.clicks += Number(row.clicks);
    else if (row.dimension === 'scans') totals.scans += Number(row.clicks);
    else totals.visitors += Number(row.clicks);
  }
  return [...byDay.values()].sort((a, b) => a.day - b.day);
}
