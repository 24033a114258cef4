import { STATS_TOP_CITIES, STATS_TOP_OTHERS } from '@common/stats/stats-messages';
import type { RollupDimension } from '../db/schema';
import type { DatabaseReader } from '../db/database-reader';
import { mergeDestinations, mergeSums, type PastDays, type PastDaysCache } from './past-days-cache';
import {
  dailyTotals,
  type DayRange,
  type DayTotals,
  type DestinationVisitors,
  destinationVisitors,
  type DimensionSum,
  sumRollups,
} from './stats.queries';

// A link clicked from a million addresses has tens of thousands of cities in a day's roll-ups.
// Summed, merged with the cached past days and ranked where they are read (the stats reader's
// thread, with SQLite), only the few rows the card shows travel to the event loop: before, every
// call carried all of them there, a few MB of objects per call to collect.

export type RankedDimension = 'city' | 'country' | 'device' | 'browser' | 'os' | 'referrer';

/** How many of each breakdown the card lists, most clicks first. */
const SHOWN: Record<RankedDimension, number> = {
  city: STATS_TOP_CITIES,
  country: Infinity,
  device: Infinity,
  browser: STATS_TOP_OTHERS,
  os: STATS_TOP_OTHERS,
  referrer: STATS_TOP_OTHERS,
};

export interface RankedRollups {
  /** Each day with any clicks, oldest first. */
  days: DayTotals[];
  /** Clicks recognised as bots over the range (they count in no breakdown). */
  botClicks: number;
  ranked: Record<RankedDimension, Array<{ value: string; clicks: number }>>;
  /** Human clicks per destination ('destination' roll-ups: the id, '' for the link's own URL); [] for a plain link. */
  destinations: Array<{ value: string; clicks: number }>;
  /** Each destination's visitors (0: the link's own URL). */
  destinationVisitors: DestinationVisitors[];
}

/** Largest first; equal counts by value, so the answer never depends on row order. */
function ranked(sums: DimensionSum[], dimension: RollupDimension, limit: number) {
  return sums
    .filter((row) => row.dimension === dimension && row.clicks > 0)
    .sort((a, b) => b.clicks - a.clicks || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, limit)
    .map(({ value, clicks }) => ({ value, clicks }));
}

async function readDays(reader: DatabaseReader, urlId: number, range: DayRange): Promise<PastDays> {
  const [sums, days] = await Promise.all([sumRollups(reader, urlId, range), dailyTotals(reader, urlId, range)]);
  // A plain link's days have no 'destination' roll-up: it pays no third read.
  const routed = sums.some((row) => row.dimension === 'destination');
  return { sums, days, destinations: routed ? await destinationVisitors(reader, urlId, range) : [] };
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
  return {
    sums: mergeSums(past.sums, recent.sums),
    days: [...past.days, ...recent.days],
    destinations: mergeDestinations(past.destinations, recent.destinations),
  };
}

export interface RankedRollupsInput {
  urlId: number;
  range: DayRange;
  now: number;
}

/** A link's daily totals and its ranked breakdowns over a range of days. */
export async function rankedRollups(reader: DatabaseReader, cache: PastDaysCache, { urlId, range, now }: RankedRollupsInput): Promise<RankedRollups> {
  const { sums, days, destinations } = await readRollups(reader, cache, urlId, range, now);
  const rankedOf = (dimension: RankedDimension) => ranked(sums, dimension, SHOWN[dimension]);
  return {
    days,
    botClicks: sums.filter((row) => row.dimension === 'bots').reduce((sum, row) => sum + row.clicks, 0),
    ranked: {
      city: rankedOf('city'),
      country: rankedOf('country'),
      device: rankedOf('device'),
      browser: rankedOf('browser'),
      os: rankedOf('os'),
      referrer: rankedOf('referrer'),
    },
    destinations: ranked(sums, 'destination', Infinity),
    destinationVisitors: destinations,
  };
}
