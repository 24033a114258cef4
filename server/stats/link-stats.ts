import { wholePercentages } from '@common/stats/percent';
import { rangeDays, type LinkStats, type StatsRange } from '@common/stats/stats-schemas';
import { STATS_TOP_CITIES, STATS_TOP_OTHERS } from '@common/stats/stats-messages';
import type { RollupDimension } from '../db/schema';
import type { DatabaseReader } from '../db/database-reader';
import { mergeSums, type PastDays, type PastDaysCache } from './past-days-cache';
import { dailyTotals, type DayRange, type DimensionSum, sumRollups } from './stats.queries';

const DAY_MS = 86_400_000;

export const dayOfMs = (epochMs: number) => Math.floor(epochMs / DAY_MS);
export const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Largest first; equal counts by value, so the answer never depends on row order. */
function ranked(sums: DimensionSum[], dimension: RollupDimension, limit = Infinity) {
  return sums
    .filter((row) => row.dimension === dimension && row.clicks > 0)
    .sort((a, b) => b.clicks - a.clicks || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, limit);
}

async function readDays(reader: DatabaseReader, urlId: number, range: DayRange): Promise<PastDays> {
  const [sums, days] = await Promise.all([sumRollups(reader, urlId, range), dailyTotals(reader, urlId, range)]);
  return { sums, days };
}

/** The range's roll-ups: days before yesterday from the cache when it has them, the rest read now. */
async function readRollups(reader: DatabaseReader, cache: PastDaysCache, urlId: number, range: DayRange, now: number) {
  const settled = range.to - 2; // the last day no click can still arrive for
  if (range.from !== undefined && range.from > settled) return readDays(reader, urlId, range);
  const key = `${urlId}:${range.from ?? 'start'}:${settled}`;
  const [past, recent] = await Promise.all([
    cache.get(key, now) ?? readDays(reader, urlId, { from: range.from, to: settled }).then((value) => (cache.set(key, value, now), value)),
    readDays(reader, urlId, { from: settled + 1, to: range.to }),
  ]);
  return { sums: mergeSums(past.sums, recent.sums), days: [...past.days, ...recent.days] };
}

export interface LinkStatsInput {
  urlId: number;
  /** The link's creation time: 'all' starts on that day. */
  createdAt: number;
  range: StatsRange;
  now: number;
}

/** The stats card's answer for one link, from the daily roll-ups. */
export async function linkStats(reader: DatabaseReader, cache: PastDaysCache, { urlId, createdAt, range, now }: LinkStatsInput): Promise<LinkStats> {
  const to = dayOfMs(now);
  const from = range === 'all' ? undefined : to - rangeDays[range] + 1;
  const { sums, days } = await readRollups(reader, cache, urlId, { from, to }, now);

  // 'all' runs from the link's first day (or its first click, if clicks were imported from before).
  const start = from ?? Math.min(dayOfMs(createdAt), days[0]?.day ?? to, to);
  const known = new Map(days.map((row) => [row.day, row]));
  const byDay: LinkStats['byDay'] = [];
  for (let day = start; day <= to; day++) {
    const row = known.get(day);
    byDay.push({ date: isoDay(day), clicks: row?.clicks ?? 0, visitors: row?.visitors ?? 0, scans: row?.scans ?? 0 });
  }

  const devices = ranked(sums, 'device');
  const percents = wholePercentages(devices.map((row) => row.clicks));
  return {
    range,
    from: isoDay(start),
    to: isoDay(to),
    total: days.reduce((sum, row) => sum + row.clicks, 0),
    uniqueVisitors: days.reduce((sum, row) => sum + row.visitors, 0),
    scans: days.reduce((sum, row) => sum + row.scans, 0),
    botClicks: sums.filter((row) => row.dimension === 'bots').reduce((sum, row) => sum + row.clicks, 0),
    byDay,
    byCity: ranked(sums, 'city', STATS_TOP_CITIES).map((row) => ({ city: row.value, count: row.clicks })),
    byCountry: ranked(sums, 'country').map((row) => ({ country: row.value, count: row.clicks })),
    byDevice: devices.map((row, i) => ({ device: row.value, count: row.clicks, percent: percents[i]! })),
    byBrowser: ranked(sums, 'browser', STATS_TOP_OTHERS).map((row) => ({ name: row.value, count: row.clicks })),
    byOs: ranked(sums, 'os', STATS_TOP_OTHERS).map((row) => ({ name: row.value, count: row.clicks })),
    byReferrer: ranked(sums, 'referrer', STATS_TOP_OTHERS).map((row) => ({ domain: row.value, count: row.clicks })),
  };
}
