import { sql } from 'kysely';
import { addressKey } from '@common/links/short-address';
import type { Database } from '../db/database';
import { dialectOf } from '../db/dialect';
import { searchText } from '../db/search-text';
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
  owner_email: string;
}

export function adminLinksQuery(db: Database) {
  return db
    .selectFrom('urls')
    .innerJoin('users', 'users.id', 'urls.user_id')
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
      'users.email as owner_email',
    ]);
}

/**
 * Every user's links, newest first, whose title, short address, alias or destination holds `q`.
 * Walks the primary key newest first and stops at a page of matches.
 */
export async function searchAllLinks(db: Database, q: string, cursor: number | undefined, ownerId?: number): Promise<AdminLinkRow[]> {
  let query = adminLinksQuery(db).orderBy('urls.id', 'desc').limit(ADMIN_PAGE_SIZE + 1);
  if (cursor) query = query.where('urls.id', '<', cursor);
  if (ownerId) query = query.where('urls.user_id', '=', ownerId);
  if (q) {
    const title = likeContains(searchText(q));
    const destination = likeContains(q.toLowerCase());
    // An address is typed with the short domain or without: its last segment is the code or alias,
    // matched exactly (both are indexed). SQLite's LIKE ignores ASCII case by itself; PostgreSQL's
    // ILIKE does it there, so neither lowercases every row's URL.
    const address = addressKey(q.replace(/[?#].*$/, '').replace(/\/+$/, '').replace(/^.*\//, ''));
    const like = dialectOf(db) === 'postgres' ? sql.raw('ilike') : sql.raw('like');
    query = query.where((eb) =>
      eb.or([
        eb('urls.short_url', '=', address),
        eb('urls.custom_url_key', '=', address),
        sql<boolean>`urls.title_search like ${title} escape '\\'`,
        sql<boolean>`urls.original_url ${like} ${destination} escape '\\'`,
      ]),
    );
  }
  return (await query.execute()).map(numbers);
}

export async function findAdminLink(db: Database, id: number): Promise<AdminLinkRow | undefined> {
  const row = await adminLinksQuery(db).where('urls.id', '=', id).executeTakeFirst();
  return row && numbers(row);
}

export function numbers<Row extends AdminLinkRow>(row: Row): Row {
  return { ...row, id: Number(row.id), user_id: Number(row.user_id), click_count: Number(row.click_count) };
}
