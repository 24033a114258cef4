import type { Rule, RuleCondition, Variant } from '@common/rules/rule-schemas';
import type { Database } from '../db/database';
import type { UrlRow } from '../db/schema';
import { splitDomainKey } from '../domains/domain-keys';
import { isBlockedUrl } from '../links/destination-policy';
import type { CachedLink, LinkGate, LinkRoute } from './link-cache';

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
  'urls.rules',
  'urls.variants',
  'urls.redirect_type',
  'urls.title',
  'urls.preview_title',
  'urls.preview_description',
  'urls.preview_image_key',
] as const;

type LookupRow = {
  id: number;
  original_url: string;
  forward_query: number;
  disabled_at: number | null;
  owner_disabled_at: number | null;
  domain_disabled_at: number | null;
  rules: string | null;
  variants: string | null;
  redirect_type: number;
  title: string;
  preview_title: string | null;
  preview_description: string | null;
  preview_image_key: string | null;
} & GateColumns;

/** What a lookup may say about a link it cannot read (its rules' JSON). */
export interface LookupLog {
  warn(fields: object, message: string): void;
}

// A link whose rules cannot be read is said once per process, not on every lookup of it.
const unreadable = new Set<number>();

/** Rules and variants as stored (JSON the API checked); null for none or when they cannot be read. */
function storedRoute(row: LookupRow, log: LookupLog | undefined): { rules: Rule[] | null; variants: Variant[] | null } | null {
  if (row.rules === null && row.variants === null) return null;
  try {
    const rules = row.rules === null ? null : (JSON.parse(row.rules) as Rule[] | null);
    const variants = row.variants === null ? null : (JSON.parse(row.variants) as Variant[] | null);
    const some = (list: unknown[] | null) => (Array.isArray(list) && list.length > 0 ? list : null);
    if (!some(rules) && !some(variants)) return null;
    return { rules: some(rules) as Rule[] | null, variants: some(variants) as Variant[] | null };
  } catch (error) {
    const id = Number(row.id);
    if (!unreadable.has(id)) {
      if (unreadable.size >= 1000) unreadable.clear();
      unreadable.add(id);
      log?.warn({ err: error, urlId: id }, "a link's rules or variants are not valid JSON: its visits go to its own URL");
    }
    return null;
  }
}

const routedStatuses = new Set([301, 307, 308]);

async function toCached(db: Database, row: LookupRow, blocked: ReadonlySet<string>, log?: LookupLog): Promise<CachedLink> {
  const link: CachedLink = { id: Number(row.id), url: locationFor(row.original_url) };
  const stored = storedRoute(row, log);
  // Disabled by an operator: the link, its owner's account, the custom domain it answers on, or
  // its destination's domain.
  const disabled =
    row.disabled_at !== null || row.owner_disabled_at !== null || row.domain_disabled_at !== null || isBlockedUrl(row.original_url, blocked);
  const gate = gateOf(row, disabled);
  // Left out rather than undefined: a plain entry stays as small as before.
  if (gate) link.gate = gate;
  if (row.forward_query) link.forwardQuery = true;
  if (stored) link.route = await routeOf(db, link, stored, blocked);
  const status = Number(row.redirect_type);
  if (routedStatuses.has(status)) link.status = status as 301 | 307 | 308;
  if (row.preview_title !== null || row.preview_description !== null || row.preview_image_key !== null) {
    link.preview = { title: row.preview_title ?? row.title, description: row.preview_description, imageKey: row.preview_image_key };
  }
  return link;
}

/**
 * A rule's conditions with every key present, in one order: JSON gives each combination of
 * conditions an object shape of its own, and reading 20 rules of many shapes costs the redirect
 * more than the tests themselves.
 */
function sameShape(when: RuleCondition): RuleCondition {
  return {
    device: when.device,
    os: when.os,
    browser: when.browser,
    country: when.country,
    language: when.language,
    query: when.query,
    from: when.from,
    until: when.until,
  };
}

/** The route a link's visits take, with the id each destination's clicks are counted under. */
async function routeOf(
  db: Database,
  link: CachedLink,
  { rules, variants }: { rules: Rule[] | null; variants: Variant[] | null },
  blocked: ReadonlySet<string>,
): Promise<LinkRoute> {
  const rows = await db.selectFrom('link_destinations').select(['id', 'source', 'url']).where('url_id', '=', link.id).execute();
  const ids = new Map(rows.map((row) => [`${row.source} ${row.url}`, Number(row.id)]));
  // A rule's or a variant's URL on a domain an operator blocked since sends its visitors to the
  // link's own URL, counted there: the rest of the link keeps working.
  const usable = (url: string) => !isBlockedUrl(url, blocked);
  const urlOf = (url: string) => (usable(url) ? locationFor(url) : link.url);
  const idOf = (source: 'rule' | 'variant', url: string) => (usable(url) ? ids.get(`${source} ${url}`) : undefined);
  return {
    rules: rules && rules.map((rule) => ({ when: sameShape(rule.when), url: urlOf(rule.url) })),
    variants: variants && variants.map((variant) => ({ url: urlOf(variant.url), weight: variant.weight })),
    ruleIds: (rules ?? []).map((rule) => idOf('rule', rule.url)),
    variantIds: (variants ?? []).map((variant) => idOf('variant', variant.url)),
    needsCountry: (rules ?? []).some((rule) => rule.when.country !== undefined),
  };
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
  log?: LookupLog,
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
  if (row) return toCached(db, row, blocked, log);
  const former = await db
    .selectFrom('former_aliases')
    .innerJoin('urls', 'urls.id', 'former_aliases.url_id')
    .innerJoin('users', 'users.id', 'urls.user_id')
    .leftJoin('domains', 'domains.id', 'urls.domain_id')
    .select(columns)
    .where('former_aliases.alias_key', '=', key)
    .executeTakeFirst();
  return former ? toCached(db, former, blocked, log) : undefined;
}
