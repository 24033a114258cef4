import { z } from 'zod';
import '../zod-setup';
import { statsMessages } from './stats-messages';

// One source for the stats route (query and answer) and the web client's types.

export const statsRanges = ['7d', '30d', '90d', 'all'] as const;
export type StatsRange = (typeof statsRanges)[number];

/** Days each range spans, today included (UTC days, like the roll-ups). */
export const rangeDays: Record<Exclude<StatsRange, 'all'>, number> = { '7d': 7, '30d': 30, '90d': 90 };

// 'all' by default: the spec's card shows every click of the link, and its total then agrees
// with the dashboard's click count.
export const DEFAULT_STATS_RANGE: StatsRange = 'all';

export const statsQuerySchema = z.object({
  range: z.enum(statsRanges, { error: statsMessages.invalidRange }).default(DEFAULT_STATS_RANGE),
});

const count = z.number().int().nonnegative();

export const linkStatsSchema = z.object({
  range: z.enum(statsRanges),
  /** First and last UTC day of the range, YYYY-MM-DD ('all' starts on the link's first day). */
  from: z.string(),
  to: z.string(),
  /** Human clicks (bots and link previews left out). */
  total: count,
  /** Distinct visitors per day, summed over the range: the salt rotates daily, so days cannot be joined. */
  uniqueVisitors: count,
  /** Human visits from the link's QR code (?qr=1): a part of total. */
  scans: count,
  /** Bot and link-preview hits, recorded but left out of every other figure. */
  botClicks: count,
  /** Every day of the range, zero days included. */
  byDay: z.array(z.object({ date: z.string(), clicks: count, visitors: count, scans: count })),
  /** The first 5 cities by clicks. */
  byCity: z.array(z.object({ city: z.string(), count })),
  /** ISO 3166 country codes, or 'Unknown'. */
  byCountry: z.array(z.object({ country: z.string(), count })),
  /** Whole-number shares summing to 100 (largest remainder). */
  byDevice: z.array(z.object({ device: z.string(), count, percent: count })),
  byBrowser: z.array(z.object({ name: z.string(), count })),
  byOs: z.array(z.object({ name: z.string(), count })),
  /** Referring domains; '' is a direct visit. */
  byReferrer: z.array(z.object({ domain: z.string(), count })),
});

export type LinkStats = z.infer<typeof linkStatsSchema>;
export type StatsQuery = z.infer<typeof statsQuerySchema>;
