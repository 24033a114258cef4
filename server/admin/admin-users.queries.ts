import { sql } from 'kysely';
import type { Database } from '../db/database';
import type { DatabaseReader } from '../db/database-reader';
import { dialectOf } from '../db/dialect';
import { searchText } from '../db/search-text';
import { fewMatchingIds, ftsContains, ftsEither, hasTrigrams, idIn } from '../db/trigram-search';
import { likeContains } from '../links/links.queries';

// The operator's queries on accounts. Counts come from user_link_totals (kept by triggers), so a
// page of users costs the same whatever their links number.

export const ADMIN_PAGE_SIZE = 50;

export interface AdminUserRow {
  id: number;
  email: string;
  name: string;
  role: 'user' | 'admin';
  disabled_at: number | null;
  created_at: number;
  links: number;
  clicks: number;
}

function usersQuery(db: Database) {
  return db
    .selectFrom('users')
    .leftJoin('user_link_totals', 'user_link_totals.user_id', 'users.id')
    .select([
      'users.id',
      'users.email',
      'users.name',
      'users.role',
      'users.disabled_at',
      'users.created_at',
      sql<number>`coalesce(user_link_totals.links, 0)`.as('links'),
      sql<number>`coalesce(user_link_totals.clicks, 0)`.as('clicks'),
    ]);
}

/**
 * A page of accounts, newest first, whose e-mail or name holds `q`, any case and any accent ('gomez'
 * finds 'Gómez', as the links' search does: the name's searchable copy, migration 0019). On SQLite
 * a term with few matches takes them from the trigram index (as searchAllLinks does). Run by the
 * admin's reader.
 */
export async function searchUsers(reader: DatabaseReader, q: string, cursor: number | undefined): Promise<AdminUserRow[]> {
  const { db } = reader;
  let query = usersQuery(db).orderBy('users.id', 'desc').limit(ADMIN_PAGE_SIZE + 1);
  if (cursor) query = query.where('users.id', '<', cursor);
  if (q) {
    const term = q.toLowerCase();
    const name = searchText(q);
    const few =
      dialectOf(db) === 'sqlite' && hasTrigrams(term) && hasTrigrams(name)
        ? await fewMatchingIds(
            reader,
            'users_search',
            // The name as typed too: an account written by the release before has no copy yet.
            ftsEither([ftsContains('email', term), ftsContains('name_search', name), ftsContains('name', term)]),
          )
        : undefined;
    if (few) {
      query = query.where(idIn('users.id', few));
    } else {
      // SQLite's LIKE ignores ASCII case by itself; PostgreSQL's ILIKE: no lower() on every row.
      const like = dialectOf(db) === 'postgres' ? sql.raw('ilike') : sql.raw('like');
      query = query.where((eb) =>
        eb.or([
          sql<boolean>`users.email ${like} ${likeContains(term)} escape '\\'`,
          sql<boolean>`users.name_search like ${likeContains(name)} escape '\\'`,
          sql<boolean>`users.name ${like} ${likeContains(term)} escape '\\'`,
        ]),
      );
    }
  }
  return (await reader.rows(query)).map(numbers);
}

export async function findAdminUser(db: Database, id: number): Promise<AdminUserRow | undefined> {
  const row = await usersQuery(db).where('users.id', '=', id).executeTakeFirst();
  return row && numbers(row);
}

function numbers<Row extends AdminUserRow>(row: Row): Row {
  return { ...row, id: Number(row.id), links: Number(row.links), clicks: Number(row.clicks) };
}

/**
 * Makes the account an admin or not. A demotion also spends ADMIN_EMAILS' grant for the address the
 * account holds, so the list does not make it an admin again at the next start (admin-emails.ts).
 */
export async function setRole(db: Database, user: { id: number; email: string }, role: 'user' | 'admin'): Promise<void> {
  await db
    .updateTable('users')
    .set(role === 'user' ? { role, admin_grant_email: user.email.toLowerCase() } : { role })
    .where('id', '=', user.id)
    .execute();
}
