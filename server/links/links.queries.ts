import { linkMessages } from '@common/links/link-messages';
import { addressKey } from '@common/links/short-address';
import type { LinkSort, LinkStatus, SortOrder } from '@common/links/link-schemas';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Database } from '../db/database';
import { type DatabaseReader, rowsOn } from '../db/database-reader';
import { type DialectName, dialectOf, urlAuthoritySql } from '../db/dialect';
import type { DB, NewUrlRow, UrlRow } from '../db/schema';
import { searchText } from '../db/search-text';
import { fewMatchingIds, ftsContains, hasTrigrams, idIn } from '../db/trigram-search';
import { domainAddressKey } from '../domains/domain-keys';
import { heldAddresses } from './held-addresses';

// One query each, the database first. Every query about a workspace's links filters by
// workspace_id: another workspace's link is simply not found. user_id is who created a link.

/** The alias columns of a row: the alias as typed, and the key it is compared by on its domain (domainAddressKey). */
export function aliasColumns(customUrl: string | null, domainId: number | null | undefined): Pick<NewUrlRow, 'custom_url' | 'custom_url_key'> {
  return { custom_url: customUrl, custom_url_key: customUrl === null ? null : domainAddressKey(domainId, customUrl) };
}

/** A urls row as written: with the searchable copy of its title. Every insert goes through it. */
export function withTitleSearch<Row extends { title: string }>(row: Row): Row & { title_search: string } {
  return { ...row, title_search: searchText(row.title) };
}

/** A link to insert, less the columns derived from others (the alias key, the searchable title). */
export type NewLink = Omit<NewUrlRow, 'title_search' | 'custom_url' | 'custom_url_key'> & { custom_url: string | null };

/** Inserts a link with the columns derived from others: the alias key and the searchable title. */
export async function insertLink(db: Database, row: NewLink): Promise<UrlRow> {
  return db
    .insertInto('urls')
    .values(withTitleSearch({ ...row, ...aliasColumns(row.custom_url, row.domain_id) }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Inserts many links in one statement (the import's chunk); each one's id by its short code. */
export async function insertLinks(db: Database, rows: NewLink[]): Promise<Map<string, number>> {
  if (rows.length === 0) return new Map();
  const inserted = await db
    .insertInto('urls')
    .values(rows.map((row) => withTitleSearch({ ...row, ...aliasColumns(row.custom_url, row.domain_id) })))
    // By short code, not by position: SQLite does not promise RETURNING's order.
    .returning(['id', 'short_url'])
    .execute();
  return new Map(inserted.map((row) => [row.short_url, Number(row.id)]));
}

export async function findWorkspaceLink(db: Database, workspaceId: number, id: number): Promise<UrlRow | undefined> {
  return db.selectFrom('urls').selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
}

export async function deleteWorkspaceLink(db: Database, workspaceId: number, id: number): Promise<UrlRow | undefined> {
  return db.deleteFrom('urls').where('id', '=', id).where('workspace_id', '=', workspaceId).returningAll().executeTakeFirst();
}

/** Whether every one of these links (id and short code, as an answer named them) is still in the workspace. */
export async function linksStillExist(db: Database, workspaceId: number, links: Array<{ id: number; shortCode: string }>): Promise<boolean> {
  if (links.length === 0) return true;
  const rows = await db
    .selectFrom('urls')
    .select(['id', 'short_url'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', links.map((link) => link.id))
    .execute();
  // The code too: the very link the answer named, not whatever holds its id now.
  const codes = new Map(rows.map((row) => [Number(row.id), row.short_url]));
  return links.every((link) => codes.get(link.id) === link.shortCode);
}

/**
 * Whether a first path segment already leads to a link on a domain (null: the instance's host), as
 * a short code (codes are unique across the instance, whatever their domain) or as an alias in any
 * case on that domain ('taken'), or belonged to a link deleted lately and is held against this
 * claimant on that domain ('held'; see held-addresses.ts). Without a claimant (a short code being
 * drawn) every hold counts.
 */
export async function isAddressTaken(db: Database, address: string, claimant?: number, domainId: number | null = null): Promise<false | 'taken' | 'held'> {
  const code = addressKey(address);
  const key = domainAddressKey(domainId, address);
  // Two lookups, each on its unique index (short codes are lowercase; aliases are indexed by their key).
  const found = await db
    .selectFrom('urls')
    .select('id')
    .where((eb) => eb.or([eb('short_url', '=', code), eb('custom_url_key', '=', key)]))
    .limit(1)
    .executeTakeFirst();
  // A former alias still leads to its link until freed.
  if (found !== undefined || (await findFormerAlias(db, key)) !== undefined) return 'taken';
  return (await heldAddresses(db, [key], claimant)).size > 0 ? 'held' : false;
}

/** An address on a domain (null: the instance's host), as takenAddresses looks it up. */
export interface DomainAddress {
  domainId: number | null;
  address: string;
}

/**
 * Which of these addresses are taken, as isAddressTaken tells for one (by domainAddressKey): a code,
 * an alias, a former alias or an address held against the claimant on the same domain. Four
 * lookups on unique indexes, whatever the number of addresses.
 */
export async function takenAddresses(db: Database, addresses: DomainAddress[], claimant?: number): Promise<Set<string>> {
  const taken = new Set<string>();
  if (addresses.length === 0) return taken;
  const keyOf = new Map(addresses.map(({ domainId, address }) => [domainAddressKey(domainId, address), addressKey(address)]));
  const keys = [...keyOf.keys()];
  // Codes are unique across the instance: an address on any domain is taken by a code like it.
  const codes = new Set((await db.selectFrom('urls').select('short_url').where('short_url', 'in', [...new Set(keyOf.values())]).execute()).map((row) => row.short_url));
  for (const [key, code] of keyOf) if (codes.has(code)) taken.add(key);
  const aliases = await db.selectFrom('urls').select('custom_url_key').where('custom_url_key', 'in', keys).execute();
  for (const row of aliases) if (row.custom_url_key !== null) taken.add(row.custom_url_key);
  const former = await db.selectFrom('former_aliases').select('alias_key').where('alias_key', 'in', keys).execute();
  for (const row of former) taken.add(row.alias_key);
  for (const key of await heldAddresses(db, keys, claimant)) taken.add(key);
  return taken;
}

/** The former alias with this key (domainAddressKey's form), whoever's it is. */
export async function findFormerAlias(db: Database, key: string) {
  return db.selectFrom('former_aliases').select(['url_id', 'alias']).where('alias_key', '=', key).executeTakeFirst();
}

/** Each link's former aliases, oldest first, for the links of a page. */
export async function formerAliasesOf(from: Database | DatabaseReader, urlIds: number[]): Promise<Map<number, string[]>> {
  const byLink = new Map<number, string[]>();
  if (urlIds.length === 0) return byLink;
  const rows = await rowsOn(from, (db) =>
    db.selectFrom('former_aliases').select(['url_id', 'alias']).where('url_id', 'in', urlIds).orderBy('created_at').orderBy('alias_key'),
  );
  for (const row of rows) {
    const id = Number(row.url_id);
    byLink.set(id, [...(byLink.get(id) ?? []), row.alias]);
  }
  return byLink;
}

export interface LinkTotals {
  links: number;
  clicks: number;
}

// The list goes through the reader (a thread of its own with SQLite): a search of a term shorter
// than a trigram, or a common one, walks the workspace's index (a short term that finds little reads
// all of it, milliseconds at 100,000 links), which must not hold up the event loop. The totals
// too, so the two come from the same connection.

/** Each creator's id and name, for links' createdBy (a creator whose account is gone: 'Cuenta eliminada'). */
export async function creatorsOf(from: Database | DatabaseReader, userIds: number[]): Promise<Map<number, { id: number; name: string }>> {
  const ids = [...new Set(userIds)];
  const rows = ids.length === 0 ? [] : await rowsOn(from, (db) => db.selectFrom('users').select(['id', 'name']).where('id', 'in', ids));
  const byId = new Map(rows.map((row) => [Number(row.id), { id: Number(row.id), name: row.name }]));
  for (const id of ids) if (!byId.has(id)) byId.set(id, { id, name: linkMessages.creatorGone });
  return byId;
}

/** Kept per workspace by triggers on urls (migration 0021): one row, however many links. */
export async function workspaceLinkTotals(reader: DatabaseReader, workspaceId: number): Promise<LinkTotals> {
  const [row] = await reader.rows(reader.db.selectFrom('workspace_link_totals').select(['links', 'clicks']).where('workspace_id', '=', workspaceId));
  // No row until the workspace's first link.
  return { links: Number(row?.links ?? 0), clicks: Number(row?.clicks ?? 0) };
}

/** Where a page starts: just after this (sort value, id) in the list's order. */
export interface PageCursor {
  /** created_at or click_count (numbers), or title_search (a string). */
  value: number | string;
  id: number;
}

export interface ListOptions {
  /** Substring of the title, regardless of case and accents ('cancion' finds 'Canción'). */
  search?: string | undefined;
  limit: number;
  after?: PageCursor | undefined;
  /** Only the links in this state now. */
  status?: LinkStatus | undefined;
  /** The operator's blocked domains: a link leading into one is 'disabled' for the state filter. */
  blocked?: ReadonlySet<string> | undefined;
  /** Only the links with this tag (findWorkspaceTag's answer), walked as tagWalk tells. */
  tag?: { id: number; walk: boolean } | undefined;
  /** Only the links this user created. */
  createdBy?: number | undefined;
  /** Only the links on this custom domain (its id), or null: on the instance's own host. */
  domainId?: number | null | undefined;
  sort?: LinkSort | undefined;
  order?: SortOrder | undefined;
  /**
   * SQLite: the ids of every link (any user's) whose title holds the search, from the trigram index
   * (fewTitleMatches), when they are few: the page is picked among them rather than by walking the
   * sort's index. PostgreSQL's planner makes this choice itself.
   */
  searchIds?: string | undefined;
}

/** The column each sort walks; each has an index (workspace_id, column, id...) (migrations 0005, 0010, 0021). */
export const sortColumns = { created: 'created_at', clicks: 'click_count', title: 'title_search' } as const;

/**
 * The WHERE condition for links in a state at `now`, the same rules as rowToLink: 'disabled' (by an
 * operator, or leading into one of the `blocked` domains) comes before every other state.
 */
export function statusCondition(status: LinkStatus, now: number, blocked: ReadonlySet<string> = new Set(), dialect: DialectName = 'sqlite') {
  return (eb: ExpressionBuilder<DB, 'urls'>) => {
    const dated = eb.and([eb('expires_at', 'is not', null), eb('expires_at', '<=', now)]);
    const spent = eb.and([eb('max_clicks', 'is not', null), eb('limit_used', '>=', eb.ref('max_clicks'))]);
    const expired = eb.or([dated, spent]);
    // A blocked domain blocks its subdomains too; the authority may carry a port.
    const authority = urlAuthoritySql(dialect, 'original_url');
    const escaped = (domain: string) => domain.replace(/[\\%_]/g, (c) => `\\${c}`);
    const onBlocked = [...blocked].flatMap((domain) => [
      sql<boolean>`${authority} = ${domain}`,
      sql<boolean>`${authority} like ${`%.${escaped(domain)}`} escape '\\'`,
      sql<boolean>`${authority} like ${`${escaped(domain)}:%`} escape '\\'`,
      sql<boolean>`${authority} like ${`%.${escaped(domain)}:%`} escape '\\'`,
    ]);
    const operator = eb('disabled_at', 'is not', null);
    const disabled = onBlocked.length === 0 ? operator : eb.or([operator, ...onBlocked]);
    const enabled = eb.not(disabled);
    switch (status) {
      case 'paused':
        return eb.and([enabled, eb('paused', '=', 1)]);
      case 'expired':
        return eb.and([enabled, eb('paused', '=', 0), expired]);
      case 'active':
        return eb.and([enabled, eb('paused', '=', 0), eb.not(expired)]);
      case 'disabled':
        return disabled;
    }
  };
}

/** Escapes LIKE's wildcards so the user's text is matched literally. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page of a workspace's links in the asked order (newest first by default), ties broken by id in
 * the same direction. The ids are picked from the sort's index (workspace_id, column, id...) walked in
 * that order: it stops at a page of matches, and a search in date or clicks order reads index
 * entries, never table rows. A tag narrows the walk to the tag's (tag_id, url_id) entries. A search
 * with few matches (searchIds) takes them from the trigram index instead and sorts them. Then
 * only that page's rows.
 */
export function workspaceLinksPageQuery(db: Database, workspaceId: number, options: ListOptions) {
  const { search, limit, after, status, tag, searchIds, createdBy } = options;
  const column = sortColumns[options.sort ?? 'created'];
  const order = options.order ?? 'desc';
  const past = order === 'desc' ? '<' : '>';
  const needle = search ? searchText(search) : '';
  const fromIndex = needle !== '' && searchIds !== undefined;
  let ids = db
    .selectFrom('urls')
    .select('id')
    // Unary + keeps SQLite from walking the workspace's whole index and probing the matches: the few
    // matches are the walk, each checked for its workspace.
    .where(fromIndex ? sql<boolean>`+workspace_id = ${workspaceId}` : sql<boolean>`workspace_id = ${workspaceId}`);
  // A creator's links: checked on each entry of the walk, in the index itself (its last column, 0021).
  if (createdBy !== undefined) ids = ids.where('user_id', '=', createdBy);
  // A domain's links: checked on each row the walk meets, as the state filter is (not in the sort's indexes).
  if (options.domainId !== undefined) ids = ids.where('domain_id', options.domainId === null ? 'is' : '=', options.domainId);
  if (status) ids = ids.where(statusCondition(status, Date.now(), options.blocked, dialectOf(db)));
  if (fromIndex) ids = ids.where(idIn('id', searchIds));
  else if (needle) ids = ids.where(sql<boolean>`title_search like ${likeContains(needle)} escape '\\'`);
  if (tag?.walk) {
    // A common tag: walk the sort's index and keep the links that have it, one probe of
    // (tag_id, url_id) each; a page of matches comes after a few hundred entries.
    ids = ids.where(({ exists, selectFrom }) =>
      exists(selectFrom('link_tags').select('link_tags.url_id').where('link_tags.tag_id', '=', tag.id).whereRef('link_tags.url_id', '=', 'urls.id')),
    );
  } else if (tag) {
    // A rare one: its few links, from its (tag_id, url_id) entries, then sorted.
    ids = ids.where('id', 'in', (eb) => eb.selectFrom('link_tags').select('url_id').where('tag_id', '=', tag.id));
  }
  // A row value, not "column < v or (column = v and id < id)": both databases seek the sort's
  // index straight to it. With the or and a creator's condition, SQLite read from the index's start
  // for a page far down (156 ms at a million links, 10.5 ms now).
  if (after) ids = ids.where(({ eb, refTuple, tuple }) => eb(refTuple(column, 'id'), past, tuple(after.value, after.id)));
  ids = ids.orderBy(column, order).orderBy('id', order).limit(limit);
  return db.selectFrom('urls').selectAll().where('id', 'in', ids).orderBy(column, order).orderBy('id', order);
}

/** A workspace's tag by key, and how many links carry it. */
export async function findWorkspaceTag(reader: DatabaseReader, workspaceId: number, key: string): Promise<{ id: number; links: number } | undefined> {
  const [row] = await reader.rows(
    reader.db
      .selectFrom('tags')
      .leftJoin('link_tags', 'link_tags.tag_id', 'tags.id')
      .select((eb) => ['tags.id', eb.fn.count('link_tags.url_id').as('links')])
      .where('tags.workspace_id', '=', workspaceId)
      .where('tags.name_key', '=', key)
      .groupBy('tags.id'),
  );
  return row ? { id: Number(row.id), links: Number(row.links) } : undefined;
}

/**
 * Whether to find a tag's links by walking the sort's index (about page * all / tagged entries
 * to fill a page) or by reading the tag's own entries and sorting them (tagged rows): the
 * cheaper of the two. Both databases get the plan chosen here rather than guessing the tag's share.
 */
export function tagWalk(taggedLinks: number, allLinks: number, page: number): boolean {
  return taggedLinks * taggedLinks > page * allLinks;
}

/**
 * SQLite: the ids of the links whose title holds the search, from the trigram index (migration
 * 0015), when the term has trigrams (three characters or more) and few titles of any user hold it
 * (FEW_MATCHES); undefined otherwise: a shorter term has nothing to look up, and a common one meets
 * a page of matches sooner by walking the sort's index.
 */
export async function fewTitleMatches(reader: DatabaseReader, search: string): Promise<string | undefined> {
  const needle = searchText(search);
  if (dialectOf(reader.db) !== 'sqlite' || !hasTrigrams(needle)) return undefined;
  return fewMatchingIds(reader, 'urls_search', ftsContains('title_search', needle));
}

export async function listWorkspaceLinks(reader: DatabaseReader, workspaceId: number, options: ListOptions): Promise<UrlRow[]> {
  const searchIds = options.search ? await fewTitleMatches(reader, options.search) : undefined;
  return reader.rows(workspaceLinksPageQuery(reader.db, workspaceId, { ...options, searchIds }));
}
