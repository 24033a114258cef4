import { UNKNOWN_LOCATION } from '@common/constants';
import type { RollupDimension } from '../db/schema';
import type { ClickDetails, EnrichedClick } from './enrich';

export interface RollupIncrement {
  url_id: number;
  day: number;
  dimension: RollupDimension;
  value: string;
  clicks: number;
}

/**
 * The batch summed per (link, day, dimension, value), so each roll-up row is upserted once per
 * flush however many clicks hit it (`groups` from clicksPerLinkAndDetails). Humans count in every
 * dimension; bots only under 'bots'.
 */
export function rollupIncrements(
  groups: Map<number, Map<ClickDetails, number>>,
  newVisitors: Array<{ urlId: number; day: number }>,
  scans: Array<{ urlId: number; day: number; count: number }> = [],
  destinations: DestinationVisitorRow[] = [],
) {
  const sums = new Map<string, RollupIncrement>();
  const add = (urlId: number, day: number, dimension: RollupDimension, value: string, count: number) => {
    const key = `${urlId}\u0000${day}\u0000${dimension}\u0000${value}`;
    const row = sums.get(key);
    if (row) row.clicks += count;
    else sums.set(key, { url_id: urlId, day, dimension, value, clicks: count });
  };
  for (const [urlId, perDetails] of groups) {
    for (const [details, count] of perDetails) {
      const { day } = details;
      if (details.isBot) {
        add(urlId, day, 'bots', '', count);
        continue;
      }
      add(urlId, day, 'total', '', count);
      add(urlId, day, 'country', details.country, count);
      add(urlId, day, 'city', details.city, count);
      add(urlId, day, 'device', details.device, count);
      add(urlId, day, 'browser', details.browser ?? UNKNOWN_LOCATION, count);
      add(urlId, day, 'os', details.os ?? UNKNOWN_LOCATION, count);
      add(urlId, day, 'referrer', details.referrer ?? '', count);
    }
  }
  for (const visitor of newVisitors) add(visitor.urlId, visitor.day, 'visitors', '', 1);
  for (const scan of scans) add(scan.urlId, scan.day, 'scans', '', scan.count);
  for (const row of destinations) add(row.url_id, row.day, 'destination', destinationValue(row.destination_id), row.clicks);
  return [...sums.values()];
}

/** The 'destination' roll-up's value: the link_destinations id, '' for the link's own URL (0). */
export const destinationValue = (destinationId: number) => (destinationId === 0 ? '' : String(destinationId));

export interface DestinationVisitorRow {
  url_id: number;
  /** link_destinations.id; 0 for the link's own URL. */
  destination_id: number;
  day: number;
  visitor_hash: string;
  /** The visitor's human clicks there in this batch. */
  clicks: number;
}

/**
 * Human clicks of links with rules or variants (those whose visits carry a destination) per
 * link, destination, day and visitor: the click_destination_visitors rows to add, and summed,
 * the 'destination' roll-ups. Bots are left out, as from every roll-up but 'bots'.
 */
export function humanClicksPerDestination(clicks: EnrichedClick[]): DestinationVisitorRow[] {
  const rows = new Map<string, DestinationVisitorRow>();
  for (const { urlId, details, destinationId } of clicks) {
    if (destinationId === undefined || details.isBot) continue;
    const key = `${urlId}\u0000${destinationId}\u0000${details.day}\u0000${details.visitorHash}`;
    const row = rows.get(key);
    if (row) row.clicks += 1;
    else rows.set(key, { url_id: urlId, destination_id: destinationId, day: details.day, visitor_hash: details.visitorHash, clicks: 1 });
  }
  return [...rows.values()];
}

/**
 * Clicks counted per link and per shared details object: most clicks of a batch share their
 * details with others, so the roll-ups and visitors are worked out per group, not per click.
 */
export function clicksPerLinkAndDetails(clicks: EnrichedClick[]): Map<number, Map<ClickDetails, number>> {
  const groups = new Map<number, Map<ClickDetails, number>>();
  for (const { urlId, details } of clicks) {
    let perDetails = groups.get(urlId);
    if (!perDetails) groups.set(urlId, (perDetails = new Map()));
    perDetails.set(details, (perDetails.get(details) ?? 0) + 1);
  }
  return groups;
}

/** Human scans (visits from a QR code) per link and day, counted like clicks: bots left out. */
export function humanScansPerLinkAndDay(clicks: EnrichedClick[]): Array<{ urlId: number; day: number; count: number }> {
  const sums = new Map<string, { urlId: number; day: number; count: number }>();
  for (const { urlId, details, scan } of clicks) {
    if (!scan || details.isBot) continue;
    const key = `${urlId}:${details.day}`;
    const row = sums.get(key);
    if (row) row.count += 1;
    else sums.set(key, { urlId, day: details.day, count: 1 });
  }
  return [...sums.values()];
}

/** Human clicks per link, for urls.click_count. */
export function humanClicksPerLink(clicks: EnrichedClick[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const click of clicks) if (!click.details.isBot) counts.set(click.urlId, (counts.get(click.urlId) ?? 0) + 1);
  return counts;
}

/** Places of click limits taken per link (SQLite counts them in memory and writes them here). */
export function limitedClicksPerLink(clicks: EnrichedClick[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const click of clicks) if (click.limited) counts.set(click.urlId, (counts.get(click.urlId) ?? 0) + 1);
  return counts;
}
