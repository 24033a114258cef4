import { z } from 'zod';
import '../zod-setup';
import { destinationSources } from '../rules/rule-schemas';
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
const rate = z.number().min(0).max(1);

/** Where a link with rules or variants sent its human clicks over the range (docs/statistics.md). */
export const destinationStatsSchema = z.object({
  /** link_destinations id; null for the link's own URL. */
  destinationId: z.number().int().nullable(),
  /** The rule's or variant's URL; the link's current URL for its own. */
  url: z.string(),
  source: z.enum(destinationSources),
  clicks: count,
  /** Unique visitors per day there, summed over the range (as uniqueVisitors). */
  visitors: count,
  /** Of the range's human clicks (total), 0..1. */
  share: rate,
});

/** An A/B test's figures over the range: the return rates of its variants compared (common/stats/ab-test.ts). */
export const abTestStatsSchema = z.object({
  /** The link's current variants, in their order. */
  variants: z.array(
    z.object({
      /** null only for a variant no link_destinations row names. */
      destinationId: z.number().int().nullable(),
      url: z.string(),
      weight: count,
      /** Unique visitors per day, summed over the range. */
      visitors: count,
      /** Of those, the ones who clicked again the same day. */
      returning: count,
      returnRate: rate,
    }),
  ),
  /** Indexes into variants: the highest return rate (ties: more visitors), and the second. */
  leader: count,
  runnerUp: count,
  /** Leader's return rate minus the runner-up's, with its 95 % confidence interval. */
  difference: z.number().min(-1).max(1),
  low: z.number().min(-1).max(1),
  high: z.number().min(-1).max(1),
  /** 1 − the two-sided p-value of the pooled two-proportion z-test; 0 when either has no visitors. */
  confidence: rate,
});

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
  /** Per destination of a link with rules or variants, most clicks first; [] for a plain link. */
  byDestination: z.array(destinationStatsSchema),
  /** null when the link has no A/B variants. */
  abTest: abTestStatsSchema.nullable(),
});

export type LinkStats = z.infer<typeof linkStatsSchema>;
export type DestinationStats = z.infer<typeof destinationStatsSchema>;
export type AbTestStats = z.infer<typeof abTestStatsSchema>;
export type StatsQuery = z.infer<typeof statsQuerySchema>;
