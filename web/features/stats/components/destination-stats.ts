import { destinationLabels, destinationStatsMessages as m, variantLetter } from '@common/rules/rule-editor-messages';
import type { AbTestStats, DestinationStats, LinkStats } from '@common/stats/stats-schemas';

// The statistics per destination (GET /api/links/:id/stats: byDestination and abTest).

export type DestinationRow = DestinationStats;
export type AbTestVariantStats = AbTestStats['variants'][number];
export type { AbTestStats };

export const destinationsOf = (stats: LinkStats) => stats.byDestination;
export const abTestOf = (stats: LinkStats) => stats.abTest;

/** The link's rules and variants as they are now (to name a row «Regla 2» or «Variante B»). */
export interface CurrentRouting {
  rules: readonly { url: string }[];
  variants: readonly { url: string }[] | null;
}

const positionsOf = (items: readonly { url: string }[] | null, url: string) =>
  (items ?? []).flatMap((item, index) => (item.url === url ? [index] : []));

/** «Regla 2», «Reglas 1 y 3», «Variante B», «Destino principal»; a rule or variant since removed says so. */
export function destinationLabel(row: Pick<DestinationRow, 'source' | 'url'>, routing: CurrentRouting, abTest: AbTestStats | null = null): string {
  if (row.source === 'default') return destinationLabels.default;
  if (row.source === 'rule') {
    const positions = positionsOf(routing.rules, row.url).map((index) => index + 1);
    if (positions.length === 0) return destinationLabels.removedRule;
    if (positions.length === 1) return destinationLabels.rule(positions[0]!);
    return `Reglas ${positions.slice(0, -1).join(', ')} y ${positions.at(-1)}`;
  }
  const [position] = positionsOf(routing.variants, row.url);
  if (position !== undefined) return destinationLabels.variant(variantLetter(position));
  const [tested] = positionsOf(abTest?.variants ?? null, row.url);
  return tested !== undefined ? destinationLabels.variant(variantLetter(tested)) : destinationLabels.removedVariant;
}

const points = new Intl.NumberFormat('es', { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' });
const percent = new Intl.NumberFormat('es', { maximumFractionDigits: 1 });

/** A share (0 to 1) as Spanish writes a percentage's number: 0.4567 -> '45,7'. */
export const percentOf = (share: number) => percent.format(share * 100);

/** The A/B verdict in plain Spanish: who leads, by how many points (with the interval), how sure. */
export function abTestVerdict(abTest: AbTestStats): { sentence: string; note: string | null } {
  const leader = abTest.variants[abTest.leader];
  if (!leader || abTest.variants.every((variant) => variant.visitors === 0)) return { sentence: m.abNoVisitors, note: null };
  // A variant nobody has reached yet cannot be compared: no lead, no interval.
  const empty = abTest.variants.findIndex((variant) => variant.visitors === 0);
  if (empty !== -1) return { sentence: m.abVariantEmpty(variantLetter(empty)), note: null };
  if (abTest.difference === 0) return { sentence: m.abTie, note: null };
  // Whole percents, rounded down: a confidence of 99.97 % is not said to be certain.
  const confidence = String(Math.min(99, Math.floor(abTest.confidence * 100)));
  const sentence = m.abLeader(
    variantLetter(abTest.leader),
    points.format(abTest.difference * 100),
    points.format(abTest.low * 100),
    points.format(abTest.high * 100),
    confidence,
  );
  return { sentence, note: abTest.confidence >= 0.95 ? m.abStrong : m.abWeak };
}

/** «Variante A: vuelven 12,5 % (25 de 200)». */
export function returnRateLine(variant: AbTestVariantStats, index: number, formatCount: (value: number) => string): string {
  return m.abRate(variantLetter(index), percentOf(variant.returnRate), formatCount(variant.returning), formatCount(variant.visitors));
}
