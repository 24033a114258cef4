import { sql } from 'kysely';
import { checkHostname } from '@common/domains/hostname';
import { addressKey } from '@common/links/short-address';
import { domainAddressKey } from '../domains/domain-keys';
import type { Database } from '../db/database';
import type { DatabaseReader } from '../db/database-reader';
import { dialectOf } from '../db/dialect';
import { searchText } from '../db/search-text';
import { fewMatchingIds, ftsContains, ftsEither, hasTrigrams, idIn } from '../db/trigram-search';
import { likeContains } from '../links/links.queries';
import { ADMIN_PAGE_SIZE } from './admin-users.queries';

export interface AdminLinkRow {
  id: number;
  title: string;
  original_url: string;
  short_url: string;
  custom_url: string | null;
  created_at: number;
  click_count: number;
  disabled_at: number | null;
  disabled_reason: string | null;
  user_id: number;
  domain_id: number | null;
  owner_email: string;
  /** The hostname of its custom domain; null on the instance's host. */
  domain: string | null;
}

export function adminLinksQuery(db: Database) {
  return db
    .selectFrom('urls')
    .innerJoin('users', 'users.id', 'urls.user_id')
    // By primary key, for the page's rows: the address is on the link's domain.
    .leftJoin('domains', 'domains.id', 'urls.domain_id')
    .select([
      'urls.id',
      'urls.title',
      'urls.original_url',
      'urls.short_url',
      'urls.custom_url',
      'urls.created_at',
      'urls.click_count',
      'urls.disabled_at',
      'urls.disabled_reason',
      'urls.user_id',
      'urls.domain_id',
      'users.email as owner_email',
      'domains.hostname as domain',
    ]);
}

/**
 * Every user's links, newest first, whose title, short address, alias or destination holds `q`.
 * Walks the primary key newest first and stops at a page of matches; on SQLite, a term with few
 * matches takes them from the trigram index instead (on PostgreSQL the planner chooses between its
 * GIN indexes and that walk). Run by the admin's reader: off the event loop on SQLite.
 */
export async function searchAllLinks(reader: DatabaseReader, q: string, cursor: number | undefined, ownerId?: number): Promise<AdminLinkRow[]> {
  const { db } = reader;
  let query = adminLinksQuery(db).orderBy('urls.id', 'desc').limit(ADMIN_PAGE_SIZE + 1);
  if (cursor) query = query.where('urls.id', '<', cursor);
  if (ownerId) query = query.where('urls.user_id', '=', ownerId);
  if (q) {
    const title = searchText(q);
    const destination = q.toLowerCase();
    // An address is typed with the short domain or without: its last segment is the code or alias,
    // matched exactly (both are indexed).
    const address = addressKey(q.replace(/[?#].*$/, '').replace(/\/+$/, '').replace(/^.*\//, ''));
    const few = await fewLinkMatches(reader, title, destination);
    // An alias typed with a custom domain's name is looked up on that domain (domainAddressKey).
    const onDomain = await domainOfTyped(reader, q);
    const text = few
      ? [idIn('urls.id', few)]
      : [
          sql<boolean>`urls.title_search like ${likeContains(title)} escape '\\'`,
          // SQLite's LIKE ignores ASCII case by itself; PostgreSQL's ILIKE does it there, so neither
          // lowercases every row's URL (and pg_trgm's index serves ILIKE as it is).
          sql<boolean>`urls.original_url ${dialectOf(db) === 'postgres' ? sql.raw('ilike') : sql.raw('like')} ${likeContains(destination)} escape '\\'`,
        ];
    const aliasKeys = [address, ...(onDomain === undefined ? [] : [domainAddressKey(onDomain, address)])];
    query = query.where((eb) => eb.or([eb('urls.short_url', '=', address), eb('urls.custom_url_key', 'in', aliasKeys), ...text]));
  }
  return (await reader.rows(query)).map(numbers);
}

/** The id of the custom domain a typed address starts with ('https://go.empresa.es/oferta'), if any. */
async function domainOfTyped(reader: DatabaseReader, q: string): Promise<number | undefined> {
  const host = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/?#\s]+)\/[^/]*$/i.exec(q.trim())?.[1];
  const checked = host === undefined ? undefined : checkHostname(host);
  if (checked === undefined || 'error' in checked) return undefined;
  const [row] = await reader.rows(reader.db.selectFrom('domains').select('id').where('hostname', '=', checked.hostname));
  return row ? Number(row.id) : undefined;
}

/** SQLite: the ids of the few links whose title or destination holds the term (see fewTitleMatches). */
async function fewLinkMatches(reader: DatabaseReader, title: string, destination: string): Promise<string | undefined> {
  if (dialectOf(reader.db) !== 'sqlite' || !hasTrigrams(title) || !hasTrigrams(destination)) return undefined;
  const query = ftsEither([ftsContains('title_search', title), ftsContains('original_url', destination)]);
  return fewMatchingIds(reader, 'urls_search', query);
}

export async function findAdminLink(db: Database, id: number): Promise<AdminLinkRow | undefined> {
  const row = await adminLinksQuery(db).where('urls.id', '=', id).executeTakeFirst();
  return row && numbers(row);
}

export function numbers<Row extends AdminLinkRow>(row: Row): Row {
  return { ...row, id: Number(row.id), user_id: Number(row.user_id), click_count: Number(row.click_count) };
}
