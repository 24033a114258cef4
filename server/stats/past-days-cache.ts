import type { RollupDimension } from '../db/schema';
import type { DayTotals, DestinationVisitors, DimensionSums } from './stats.queries';

// The roll-ups of days before yesterday no longer change: a click is counted under the day it
// happened, and the writer only holds today's and yesterday's. So their sums are kept here, and a
// request only reads the last two days' rows: a link with a year of clicks answers in
// milliseconds, and stats requests do not eat the CPU that redirects need. Entries expire after
// TTL_MS anyway, so clicks a long database outage held back still show up within minutes.

const TTL_MS = 10 * 60_000;
const MAX_ENTRIES = 256;

/** A range of days as read: each value's sum, the daily totals, the destinations' visitors. */
export interface PastDays {
  sums: DimensionSums;
  days: DayTotals[];
  /** Only for a link whose days had routed clicks (rules or variants). */
  destinations: DestinationVisitors[];
}

/** One dimension's values over the settled days: most clicks first (equal counts by value), and each one's clicks. */
export interface RankedSums {
  order: Array<{ value: string; clicks: number }>;
  clicks: Map<string, number>;
}

/**
 * Settled days as kept: their sums ranked once, when read. A request then merges only the last two
 * days' few values into them (ranked-rollups.ts), instead of copying and sorting every city of a
 * link clicked from a million addresses at each call.
 */
export interface SettledDays extends Omit<PastDays, 'sums'> {
  sums: Map<RollupDimension, RankedSums>;
}

/** Entries by key, each dropped TTL_MS after it was set, and the least recently used beyond MAX_ENTRIES. */
export interface ExpiringCache<Value> {
  get(key: string, now: number): Value | undefined;
  set(key: string, value: Value, now: number): void;
}

/** Largest first; equal counts by value, so the answer never depends on row order. */
export function byClicksThenValue(a: { value: string; clicks: number }, b: { value: string; clicks: number }): number {
  return b.clicks - a.clicks || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
}

/** Settled days' sums ranked per dimension, as the cache keeps them. */
export function settle({ sums, days, destinations }: PastDays): SettledDays {
  const ranked = new Map<RollupDimension, RankedSums>();
  for (const [dimension, values] of sums) {
    const order: RankedSums['order'] = [];
    for (const [value, clicks] of values) if (clicks > 0) order.push({ value, clicks });
    ranked.set(dimension, { order: order.sort(byClicksThenValue), clicks: values });
  }
  return { sums: ranked, days, destinations };
}

export function createExpiringCache<Value>(): ExpiringCache<Value> {
  // A Map keeps insertion order: re-inserting on use makes the first key the least recently used.
  const entries = new Map<string, { value: Value; at: number }>();
  return {
    get(key, now) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (now - entry.at > TTL_MS) return undefined;
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value, now) {
      entries.delete(key);
      entries.set(key, { value, at: now });
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    },
  };
}

/** Adds the destinations' visitors of two disjoint day ranges (visitors are visitor-days: they add up). */
export function mergeDestinations(a: DestinationVisitors[], b: DestinationVisitors[]): DestinationVisitors[] {
  const merged = new Map<number, DestinationVisitors>();
  for (const row of [...a, ...b]) {
    const seen = merged.get(row.destinationId);
    if (seen) {
      seen.visitors += row.visitors;
      seen.returning += row.returning;
    } else merged.set(row.destinationId, { ...row });
  }
  return [...merged.values()];
}
