import { wholePercentages } from '@common/stats/percent';
import { rangeDays, type LinkStats, type StatsRange } from '@common/stats/stats-schemas';
import { DAY_MS, dayOf } from '../clicks/visitors';
import type { DatabaseReader } from '../db/database-reader';
import type { UrlRow } from '../db/schema';
import { destinationFigures, type RoutedLink } from './destination-stats';

export const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

export interface LinkStatsInput {
  urlId: number;
  /** The link's creation time: 'all' starts on that day. */
  createdAt: number;
  range: StatsRange;
  now: number;
  /** Its URL, rules and variants: the statistics per destination. */
  link: RoutedLink;
}

/** The stats card's answer for one link, from the daily roll-ups (summed and ranked by the reader: ranked-rollups.ts). */
export async function linkStats(reader: DatabaseReader, { urlId, createdAt, range, now, link }: LinkStatsInput): Promise<LinkStats> {
  const to = dayOf(now);
  const from = range === 'all' ? undefined : to - rangeDays[range] + 1;
  const { days, botClicks, ranked, destinations, destinationVisitors } = await reader.run('rankedRollups', { urlId, range: { from, to }, now });
  const total = days.reduce((sum, row) => sum + row.clicks, 0);

  // 'all' runs from the link's first day (or its first click, if clicks were imported from before).
  const start = from ?? Math.min(dayOf(createdAt), days[0]?.day ?? to, to);
  const known = new Map(days.map((row) => [row.day, row]));
  const byDay: LinkStats['byDay'] = [];
  for (let day = start; day <= to; day++) {
    const row = known.get(day);
    byDay.push({ date: isoDay(day), clicks: row?.clicks ?? 0, visitors: row?.visitors ?? 0, scans: row?.scans ?? 0 });
  }

  const percents = wholePercentages(ranked.device.map((row) => row.clicks));
  return {
    range,
    from: isoDay(start),
    to: isoDay(to),
    total,
    uniqueVisitors: days.reduce((sum, row) => sum + row.visitors, 0),
    scans: days.reduce((sum, row) => sum + row.scans, 0),
    botClicks,
    byDay,
    byCity: ranked.city.map((row) => ({ city: row.value, count: row.clicks })),
    byCountry: ranked.country.map((row) => ({ country: row.value, count: row.clicks })),
    byDevice: ranked.device.map((row, i) => ({ device: row.value, count: row.clicks, percent: percents[i]! })),
    byBrowser: ranked.browser.map((row) => ({ name: row.value, count: row.clicks })),
    byOs: ranked.os.map((row) => ({ name: row.value, count: row.clicks })),
    byReferrer: ranked.referrer.map((row) => ({ domain: row.value, count: row.clicks })),
    ...(await destinationFigures(reader, urlId, link, { destinations, destinationVisitors }, total)),
  };
}

/** A link's statistics over `range`, as of now: GET /api/links/:id/stats and the MCP tool that reads them. */
export function statsOfLink(reader: DatabaseReader, link: UrlRow, range: StatsRange): Promise<LinkStats> {
  return linkStats(reader, {
    urlId: Number(link.id),
    createdAt: Number(link.created_at),
    range,
    now: Date.now(),
    link: { originalUrl: link.original_url, rules: link.rules, variants: link.variants },
  });
}
