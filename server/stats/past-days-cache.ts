import type { DayTotals, DestinationVisitors, DimensionSum } from './stats.queries';

// The roll-ups of days before yesterday no longer change: a click is counted under the day it
// happened, and the writer only holds today's and yesterday's. So their sums are kept here, and a
// request only reads the last two days' rows: a link with a year of clicks answers in
// milliseconds, and stats requests do not eat the CPU that redirects need. Entries expire after
// TTL_MS anyway, so clicks a long database outage held back still show up within minutes.

const TTL_MS = 10 * 60_000;
const MAX_ENTRIES = 256;

export interface PastDays {
  sums: DimensionSum[];
  days: DayTotals[];
  /** Only for a link whose days had routed clicks (rules or variants). */
  destinations: DestinationVisitors[];
}

export interface PastDaysCache {
  get(key: string, now: number): PastDays | undefined;
  set(key: string, value: PastDays, now: number): void;
}

export function createPastDaysCache(): PastDaysCache {
  // A Map keeps insertion order: re-inserting on use makes the first key the least recently used.
  const entries = new Map<string, PastDays & { at: number }>();
  return {
    get(key, now) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (now - entry.at > TTL_MS) return undefined;
      entries.set(key, entry);
      return entry;
    },
    set(key, value, now) {
      entries.delete(key);
      entries.set(key, { ...value, at: now });
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

/** Adds two sets of sums of disjoint day ranges. */
export function mergeSums(a: DimensionSum[], b: DimensionSum[]): DimensionSum[] {
  const merged = new Map<string, DimensionSum>();
  for (const row of [...a, ...b]) {
    const key = `${row.dimension}\u0000${row.value}`;
    const seen = merged.get(key);
    if (seen) seen.clicks += row.clicks;
    else merged.set(key, { ...row });
  }
  return [...merged.values()];
}
