import type { DestinationSource } from '@common/rules/rule-schemas';
import type { Database } from '../db/database';
import type { DatabaseReader } from '../db/database-reader';
import { rowsOn } from '../db/database-reader';

// Every URL a link's rules and A/B variants have named, once per (link, source, url): a click keeps
// the id of where it went (clicks.destination_id), so the counts per destination stay right when
// rules are reordered, edited or removed. Rows are only ever added: an old click keeps its
// destination after the rule that sent it is gone (a link's deletion takes them, by cascade).

type Routed = readonly { url: string }[] | null | undefined;

/** The key destinationIdsOf answers by: `${source} ${url}`. */
export const destinationKey = (source: Exclude<DestinationSource, 'default'>, url: string) => `${source} ${url}`;

/**
 * Writes a row for each rule and variant URL the link has not had yet, in the caller's transaction
 * (the link's own write): a URL already there keeps its id.
 */
export async function saveDestinations(trx: Database, urlId: number, rules: Routed, variants: Routed): Promise<void> {
  const now = Date.now();
  const rows = new Map<string, { url_id: number; source: 'rule' | 'variant'; url: string; created_at: number }>();
  for (const rule of rules ?? []) rows.set(destinationKey('rule', rule.url), { url_id: urlId, source: 'rule', url: rule.url, created_at: now });
  for (const variant of variants ?? []) rows.set(destinationKey('variant', variant.url), { url_id: urlId, source: 'variant', url: variant.url, created_at: now });
  if (rows.size === 0) return;
  await trx
    .insertInto('link_destinations')
    .values([...rows.values()])
    .onConflict((conflict) => conflict.columns(['url_id', 'source', 'url']).doNothing())
    .execute();
}

/** Every destination a link has had, id by `${source} ${url}` (destinationKey). */
export async function destinationIdsOf(db: Database | DatabaseReader, urlId: number): Promise<Map<string, number>> {
  const rows = await rowsOn(db, (on) => on.selectFrom('link_destinations').select(['id', 'source', 'url']).where('url_id', '=', urlId));
  return new Map(rows.map((row) => [destinationKey(row.source, row.url), Number(row.id)]));
}
