import { type Rule, rulesSchema, type Variant, variantsSchema } from '@common/rules/rule-schemas';
import { abTestOf } from '@common/stats/ab-test';
import type { AbTestStats, DestinationStats } from '@common/stats/stats-schemas';
import type { z } from 'zod';
import type { DatabaseReader } from '../db/database-reader';
import type { RankedRollups } from './ranked-rollups';

// Where a link's rules and variants sent its visitors, from the 'destination' roll-ups and
// click_destination_visitors (summed by the reader task), named through link_destinations:
// a destination keeps its id when rules are edited or reordered, so its past clicks stay its own.

/** What the statistics need of the link's row. */
export interface RoutedLink {
  /** The link's current URL: its own destination's (source 'default'). */
  originalUrl: string;
  /** urls.rules and urls.variants, JSON or null. */
  rules: string | null;
  variants: string | null;
}

/** The stored JSON, read as the links API wrote it; anything else counts as none. */
function storedList<T>(schema: z.ZodType<T>, json: string | null): T | null {
  if (json === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const SOURCE_ORDER = { rule: 0, variant: 1, default: 2 } as const;

export interface DestinationFigures {
  byDestination: DestinationStats[];
  abTest: AbTestStats | null;
}

/**
 * Every destination with clicks in the range, and those the link sends to now (with zeros: a
 * rule nobody matched shows as such). A plain link that never had rules answers [] and null
 * without reading anything more.
 */
export async function destinationFigures(
  reader: DatabaseReader,
  urlId: number,
  link: RoutedLink,
  { destinations, destinationVisitors }: Pick<RankedRollups, 'destinations' | 'destinationVisitors'>,
  total: number,
): Promise<DestinationFigures> {
  const rules: Rule[] = storedList(rulesSchema, link.rules) ?? [];
  const variants: Variant[] | null = storedList(variantsSchema, link.variants);
  if (destinations.length === 0 && rules.length === 0 && !variants) return { byDestination: [], abTest: null };

  const named = await reader.rows(reader.db.selectFrom('link_destinations').select(['id', 'source', 'url']).where('url_id', '=', urlId));
  const byId = new Map(named.map((row) => [Number(row.id), { source: row.source, url: row.url }]));
  const idOf = new Map(named.map((row) => [`${row.source} ${row.url}`, Number(row.id)]));
  const clicksOf = new Map(destinations.map((row) => [row.value === '' ? 0 : Number(row.value), row.clicks]));
  const visitorsOf = new Map(destinationVisitors.map((row) => [row.destinationId, row]));

  // 0 stands for the link's own URL until the answer (null there).
  const shown = new Set(clicksOf.keys());
  for (const rule of rules) shown.add(idOf.get(`rule ${rule.url}`) ?? -1);
  for (const variant of variants ?? []) shown.add(idOf.get(`variant ${variant.url}`) ?? -1);
  // Variants take every visit no rule took: the link's own URL is reached only without them.
  if (rules.length > 0 && !variants) shown.add(0);
  shown.delete(-1);

  const byDestination: DestinationStats[] = [];
  for (const id of shown) {
    const where = id === 0 ? { source: 'default' as const, url: link.originalUrl } : byId.get(id);
    if (!where) continue; // a link_destinations row is never deleted while its link lives
    const clicks = clicksOf.get(id) ?? 0;
    byDestination.push({
      destinationId: id === 0 ? null : id,
      url: where.url,
      source: where.source,
      clicks,
      visitors: visitorsOf.get(id)?.visitors ?? 0,
      share: total > 0 ? Math.min(1, clicks / total) : 0,
    });
  }
  byDestination.sort(
    (a, b) => b.clicks - a.clicks || SOURCE_ORDER[a.source] - SOURCE_ORDER[b.source] || (a.destinationId ?? 0) - (b.destinationId ?? 0),
  );

  let abTest: AbTestStats | null = null;
  if (variants) {
    abTest = abTestOf(
      variants.map(({ url, weight }) => {
        const destinationId = idOf.get(`variant ${url}`) ?? null;
        const seen = destinationId === null ? undefined : visitorsOf.get(destinationId);
        return { destinationId, url, weight, visitors: seen?.visitors ?? 0, returning: seen?.returning ?? 0 };
      }),
    );
  }
  return { byDestination, abTest };
}
