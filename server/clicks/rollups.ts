import { UNKNOWN_LOCATION } from '@common/constants';
import type { RollupDimension } from '../db/schema';
import type { EnrichedClick } from './enrich';

export interface RollupIncrement {
  url_id: number;
  day: number;
  dimension: RollupDimension;
  value: string;
  clicks: number;
}

/**
 * The batch summed per (link, day, dimension, value), so each roll-up row is upserted once per
 * flush however many clicks hit it. Humans count in every dimension; bots only under 'bots'.
 */
export function rollupIncrements(clicks: EnrichedClick[], newVisitors: Array<{ urlId: number; day: number }>) {
  // Most clicks of a batch look alike: group identical ones first, then spread each group
  // over the dimensions, instead of seven map updates per click.
  const groups = new Map<string, { click: EnrichedClick; count: number }>();
  for (const click of clicks) {
    const key = click.isBot
      ? `${click.urlId}\u0000${click.day}\u0000bot`
      : `${click.urlId}\u0000${click.day}\u0000${click.country}\u0000${click.city}\u0000${click.device}\u0000${click.browser}\u0000${click.os}\u0000${click.referrer}`;
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { click, count: 1 });
  }

  const sums = new Map<string, RollupIncrement>();
  const add = (urlId: number, day: number, dimension: RollupDimension, value: string, count: number) => {
    const key = `${urlId}\u0000${day}\u0000${dimension}\u0000${value}`;
    const row = sums.get(key);
    if (row) row.clicks += count;
    else sums.set(key, { url_id: urlId, day, dimension, value, clicks: count });
  };
  for (const { click, count } of groups.values()) {
    const { urlId, day } = click;
    if (click.isBot) {
      add(urlId, day, 'bots', '', count);
      continue;
    }
    add(urlId, day, 'total', '', count);
    add(urlId, day, 'country', click.country, count);
    add(urlId, day, 'city', click.city, count);
    add(urlId, day, 'device', click.device, count);
    add(urlId, day, 'browser', click.browser ?? UNKNOWN_LOCATION, count);
    add(urlId, day, 'os', click.os ?? UNKNOWN_LOCATION, count);
    add(urlId, day, 'referrer', click.referrer ?? '', count);
  }
  for (const visitor of newVisitors) add(visitor.urlId, visitor.day, 'visitors', '', 1);
  return [...sums.values()];
}

/** Human clicks per link, for urls.click_count. */
export function humanClicksPerLink(clicks: EnrichedClick[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const click of clicks) if (!click.isBot) counts.set(click.urlId, (counts.get(click.urlId) ?? 0) + 1);
  return counts;
}
