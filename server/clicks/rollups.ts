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
  const sums = new Map<string, RollupIncrement>();
  const add = (urlId: number, day: number, dimension: RollupDimension, value: string) => {
    const key = `${urlId}\u0000${day}\u0000${dimension}\u0000${value}`;
    const row = sums.get(key);
    if (row) row.clicks += 1;
    else sums.set(key, { url_id: urlId, day, dimension, value, clicks: 1 });
  };
  for (const click of clicks) {
    const { urlId, day } = click;
    if (click.isBot) {
      add(urlId, day, 'bots', '');
      continue;
    }
    add(urlId, day, 'total', '');
    add(urlId, day, 'country', click.country);
    add(urlId, day, 'city', click.city);
    add(urlId, day, 'device', click.device);
    add(urlId, day, 'browser', click.browser ?? UNKNOWN_LOCATION);
    add(urlId, day, 'os', click.os ?? UNKNOWN_LOCATION);
    add(urlId, day, 'referrer', click.referrer ?? '');
  }
  for (const visitor of newVisitors) add(visitor.urlId, visitor.day, 'visitors', '');
  return [...sums.values()];
}

/** Human clicks per link, for urls.click_count. */
export function humanClicksPerLink(clicks: EnrichedClick[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const click of clicks) if (!click.isBot) counts.set(click.urlId, (counts.get(click.urlId) ?? 0) + 1);
  return counts;
}
