import type { Database } from '../db/database';
import type { UrlRow } from '../db/schema';
import { splitDomainKey } from '../domains/domain-keys';
import { isBlockedUrl } from '../links/destination-policy';
import type { CachedLink, LinkGate } from './link-cache';

// Printable ASCII without spaces: anything else cannot go into a Location header as it is.
const headerSafe = /^[\x21-\x7e]*$/;

/** The Location header for a stored URL: percent-encoded if it holds spaces or non-ASCII characters. */
export function locationFor(originalUrl: string): string {
  if (headerSafe.test(originalUrl)) return originalUrl;
  try {
    return new URL(originalUrl).href;
  } catch {
    return encodeURI(originalUrl);
  }
}

type GateColumns = Pick<UrlRow, 'paused' | 'expires_at' | 'max_clicks' | 'password_hash'>;

/** The gate of a link with state, or undefined for a plain one (the fast path's single check). */
export function gateOf(row: GateColumns, disabled = false): LinkGate | undefined {
  const paused = Boolean(row.paused);
  const hasPassword = row.password_hash !== null;
  if (!disabled && !paused && row.expires_at === null && row.max_clicks === null && !hasPassword) return undefined;
  return {
    dateOnly: !disabled && !paused && row.max_clicks === null && !hasPassword,
    limitOnly: !disabled && !paused && row.max_clicks !== null && !hasPassword,
    disabled,
    paused,
    expiresAt: row.expires_at === null ? Infinity : Number(row.expires_at),
    maxClicks: row.max_clicks,
    hasPassword,
  };
}

const columns = [
  'urls.id',
  'original_url',
  'short_url',
  'paused',
  'expires_at',
  'max_clicks',
  'urls.password_hash',
  'forward_query',
  'urls.disabled_at',
  'users.disabled_at as owner_disabled_at',
  'domains.disabled_at as domain_disabled_at',
] as const;

type LookupRow = {
  id: number;
  original_url: string;
  forward_query: number;
  disabled_at: number | null;
  owner_disabled_at: number | null;
  domain_disabled_at: number | null;
} & GateColumns;

function toCached(row: LookupRow, blocked: ReadonlySet<string>): CachedLink {
  const link: CachedLink = { id: Number(row.id), url: locationFor(row.original_url) };
  // Disabled by an operator: the link, its owner's account, the custom domain it answers on, or
  // its destination's domain.
  const disabled =
    row.disabled_at !== null || row.owner_disabled_at !== null || row.domain_disabled_at !== null || isBlockedUrl(row.original_url, blocked);
  const gate = gateOf(row, disabled);
  // Left out rather than undefined: a plain entry stays as small as before.
  if (gate) link.gate = gate;
  if (row.forward_query) link.forwardQuery = true;
  return link;
}

/**
 * The link whose short code, custom alias or former alias is `key`, in domainAddressKey's form
 * (addressKey's on the instance's own host, '{domain id}/' before it on a custom domain). A short
 * code answers only on its link's domain, so a domain's links never answer on another host. A short
 * code wins over another link's alias spelled the same, so the answer never depends on row order;
 * former aliases are looked up only when nothing else matched.
 */
export async function findLinkByCode(
  db: Database,
  key: string,
  blocked: ReadonlySet<string> = new Set(),
): Promise<CachedLink | undefined> {
  const { domainId, key: code } = splitDomainKey(key);
  const rows = await db
    .selectFrom('urls')
    .innerJoin('users', 'users.id', 'urls.user_id')
    .leftJoin('domains', 'domains.id', 'urls.domain_id')
    .select(columns)
    .where((eb) =>
      eb.or([
        eb.and([eb('short_url', '=', code), domainId === null ? eb('urls.domain_id', 'is', null) : eb('urls.domain_id', '=', domainId)]),
        // The key carries the domain already.
        eb('custom_url_key', '=', key),
      ]),
    )
    .limit(2)
    .execute();
  const row = rows.find((candidate) => candidate.short_url === code) ?? rows[0];
  if (row) return toCached(row, blocked);
  const former = await db
    .selectFrom('former_aliases')
    .innerJoin('urls', 'urls.id', 'former_aliases.url_id')
    .innerJoin('users', 'users.id', 'urls.user_id')
    .leftJoin('domains', 'domains.id', 'urls.domain_id')
    .select(columns)
    .where('former_aliases.alias_key', '=', key)
    .executeTakeFirst();
  return former ? toCached(former, blocked) : undefined;
}
