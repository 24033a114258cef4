import { STATS_TOP_CITIES, STATS_TOP_OTHERS } from '@common/stats/stats-messages';
import type { RollupDimension } from '../db/schema';
import type { DatabaseReader } from '../db/database-reader';
import { byClicksThenValue, createExpiringCache, type ExpiringCache, mergeDestinations, type PastDays, type RankedSums, settle, type SettledDays } from './past-days-cache';
import {
  clickCountsStamp,
  dailyTotals,
  type DayRange,
  type DayTotals,
  type DestinationVisitors,
  destinationVisitors,
  sumRollups,
} from './stats.queries';

// A link clicked from a million addresses has tens of thousands of cities in a day's roll-ups.
// Summed, merged with the cached past days and ranked where they are read (a reader's
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

/**
 * The `limit` values with most clicks over settled and recent days together. A value without recent
 * clicks keeps its settled rank, so only the recent values and the first `limit` of the others can
 * be among them: a request costs the last two days' values, not every city the link ever had. Only
 * the best `limit` candidates are held as they come (a link clicked from everywhere has tens of
 * thousands of recent cities, and the card shows five).
 */
function topOf(settled: RankedSums | undefined, recent: Map<string, number> | undefined, limit: number) {
  const best: Array<{ value: string; clicks: number }> = [];
  const consider = (value: string, clicks: number) => {
    if (clicks <= 0) return;
    best.push({ value, clicks });
    if (best.length >= 2 * limit + 64) best.sort(byClicksThenValue).length = limit;
  };
  for (const [value, clicks] of recent ?? []) consider(value, (settled?.clicks.get(value) ?? 0) + clicks);
  let others = 0;
  for (const row of settled?.order ?? []) {
    if (others >= limit) break;
    if (recent?.has(row.value)) continue;
    consider(row.value, row.clicks);
    others += 1;
  }
  return best.sort(byClicksThenValue).slice(0, limit);
}

async function readDays(reader: DatabaseReader, urlId: number, range: DayRange): Promise<PastDays> {
  const [sums, days] = await Promise.all([sumRollups(reader, urlId, range), dailyTotals(reader, urlId, range)]);
  // A plain link's days have no 'destination' roll-up: it pays no third read.
  const routed = sums.has('destination');
  return { sums, days, destinations: routed ? await destinationVisitors(reader, urlId, range) : [] };
}

const NOTHING_SETTLED: SettledDays = { sums: new Map(), days: [], destinations: [] };

/** An answer as kept: what it was built from, the settled days' entry and the last two days' counts. */
interface KeptAnswer {
  past: SettledDays;
  recentCounts: string;
  answer: RankedRollups;
}

/**
 * A reader's caches: the settled days' sums, ranked (past-days-cache.ts), and each range's last
 * answer. A link clicked from everywhere has tens of thousands of cities on the last two days
 * alone, and reading them takes tens of milliseconds; while no click arrives, that answer stands.
 */
export interface RankedRollupsCaches {
  pastDays: ExpiringCache<SettledDays>;
  answers: ExpiringCache<KeptAnswer>;
}

export function createRankedRollupsCaches(): RankedRollupsCaches {
  return { pastDays: createExpiringCache<SettledDays>(), answers: createExpiringCache<KeptAnswer>() };
}

/** The settled days of a range (the days before yesterday), from the cache when it has them. */
async function settledDays(reader: DatabaseReader, cache: ExpiringCache<SettledDays>, urlId: number, range: DayRange, now: number): Promise<SettledDays> {
  const key = `${urlId}:${range.from ?? 'start'}:${range.to}`;
  const kept = cache.get(key, now);
  if (kept) return kept;
  const read = settle(await readDays(reader, urlId, range));
  cache.set(key, read, now);
  return read;
}

/** The answer from the settled days' ranked sums and the last two days' rows. */
function answerOf(past: SettledDays, recent: PastDays): RankedRollups {
  const top = (dimension: RollupDimension, limit: number) => topOf(past.sums.get(dimension), recent.sums.get(dimension), limit);
  const rankedOf = (dimension: RankedDimension) => top(dimension, SHOWN[dimension]);
  return {
    days: [...past.days, ...recent.days],
    botClicks: top('bots', Infinity).reduce((sum, row) => sum + row.clicks, 0),
    ranked: {
      city: rankedOf('city'),
      country: rankedOf('country'),
      device: rankedOf('device'),
      browser: rankedOf('browser'),
      os: rankedOf('os'),
      referrer: rankedOf('referrer'),
    },
    destinations: top('destination', Infinity),
    destinationVisitors: mergeDestinations(past.destinations, recent.destinations),
  };
}

export interface RankedRollupsInput {
  urlId: number;
  range: DayRange;
  now: number;
}

/**
 * A link's daily totals and its ranked breakdowns over a range of days: the days before yesterday
 * from the cache when it has them, the last two read now, unless their click counts are those of
 * the range's last answer (then that answer, as it was).
 */
export async function rankedRollups(reader: DatabaseReader, caches: RankedRollupsCaches, { urlId, range, now }: RankedRollupsInput): Promise<RankedRollups> {
  const settled = range.to - 2; // the last day no click can still arrive for
  const onlyRecent = range.from !== undefined && range.from > settled;
  const recentRange = { from: onlyRecent ? range.from : settled + 1, to: range.to };
  // The counts are read before the rows: an answer is never older than the counts it is kept with.
  const [past, recentCounts] = await Promise.all([
    onlyRecent ? NOTHING_SETTLED : settledDays(reader, caches.pastDays, urlId, { from: range.from, to: settled }, now),
    clickCountsStamp(reader, urlId, recentRange),
  ]);
  const key = `${urlId}:${range.from ?? 'start'}:${range.to}`;
  const kept = caches.answers.get(key, now);
  if (kept && kept.past === past && kept.recentCounts === recentCounts) return kept.answer;
  const answer = answerOf(past, await readDays(reader, urlId, recentRange));
  caches.answers.set(key, { past, recentCounts, answer }, now);
  return answer;
}
