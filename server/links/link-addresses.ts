import type { AppContext } from '../app-context';
import type { Database } from '../db/database';
import { type DatabaseReader, rowsOn } from '../db/database-reader';
import { domainAddressKey, splitDomainKey } from '../domains/domain-keys';

// Every address a link answers on, each on its domain: its code and alias on the link's domain
// (urls.domain_id), each former alias on the domain it was made on (the domain in its key: a link
// moved to another domain keeps its former alias on the old one). What a deletion holds and what
// every redirect cache forgets.

/** A link's own addresses: its domain (null: the instance's host), code and alias. */
export interface LinkOwnAddresses {
  domainId: number | null;
  shortCode: string;
  customUrl: string | null;
}

/** A former alias as typed, with its key (domainAddressKey: its domain in it). */
export interface FormerAliasKey {
  alias: string;
  alias_key: string;
}

/** Each link's former aliases with their keys, oldest first. */
export async function formerAliasKeysOf(from: Database | DatabaseReader, urlIds: number[]): Promise<Map<number, FormerAliasKey[]>> {
  const byLink = new Map<number, FormerAliasKey[]>();
  if (urlIds.length === 0) return byLink;
  const rows = await rowsOn(from, (db) =>
    db.selectFrom('former_aliases').select(['url_id', 'alias', 'alias_key']).where('url_id', 'in', urlIds).orderBy('created_at').orderBy('alias_key'),
  );
  for (const { url_id, alias, alias_key } of rows) byLink.set(Number(url_id), [...(byLink.get(Number(url_id)) ?? []), { alias, alias_key }]);
  return byLink;
}

/** The keys a deleted link's addresses are held by (held-addresses.ts), each on its domain. */
export function addressKeysOf(link: LinkOwnAddresses, former: readonly FormerAliasKey[]): string[] {
  return [
    domainAddressKey(link.domainId, link.shortCode),
    ...(link.customUrl === null ? [] : [domainAddressKey(link.domainId, link.customUrl)]),
    ...former.map((alias) => alias.alias_key),
  ];
}

/** The domain (null: the instance's host) a urls.domain_id or a key names. */
export const domainIdOf = (id: number | null | undefined): number | null => (id === null || id === undefined ? null : Number(id));

/**
 * Every instance's redirect cache forgets the link's addresses: its code and alias on its domain,
 * each former alias on its own, and `also` (addresses it had before an edit, on their domains).
 */
export async function forgetLinkAddresses(
  linkCache: AppContext['linkCache'],
  link: LinkOwnAddresses,
  former: readonly FormerAliasKey[],
  also: readonly LinkOwnAddresses[] = [],
): Promise<void> {
  const byDomain = new Map<number | null, string[]>([[link.domainId, []]]);
  for (const { alias, alias_key } of former) {
    const { domainId } = splitDomainKey(alias_key);
    byDomain.set(domainId, [...(byDomain.get(domainId) ?? []), alias]);
  }
  for (const [domainId, previousAddresses] of byDomain) {
    // On another domain than the link's, the code is forgotten there too: it never answers there now.
    const own = domainId === link.domainId;
    await linkCache.forget({ domainId, shortCode: link.shortCode, customUrl: own ? link.customUrl : null, previousAddresses });
  }
  for (const before of also) await linkCache.forget(before);
}
