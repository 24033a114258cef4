import punycode from 'punycode/punycode.js';
import { sql } from 'kysely';
import type { Database } from '../db/database';
import type { DatabaseReader } from '../db/database-reader';
import { dialectOf } from '../db/dialect';
import { ADMIN_PAGE_SIZE } from '../admin/admin-users.queries';
import { likeContains } from '../links/links.queries';

// The operator's list of every workspace's domains, newest first, with each one's workspace and
// link count (urls_domain_id_idx: one count per row of the page).

export interface AdminDomainRow {
  id: number;
  hostname: string;
  workspace_id: number;
  workspace_slug: string;
  workspace_name: string;
  verified_at: number | null;
  disabled_at: number | null;
  created_at: number;
  links: number;
}

function domainsQuery(db: Database) {
  return db
    .selectFrom('domains')
    .innerJoin('workspaces', 'workspaces.id', 'domains.workspace_id')
    .select((eb) => [
      'domains.id',
      'domains.hostname',
      'domains.workspace_id',
      'workspaces.slug as workspace_slug',
      'workspaces.name as workspace_name',
      'domains.verified_at',
      'domains.disabled_at',
      'domains.created_at',
      eb.selectFrom('urls').select(eb.fn.countAll<number>().as('n')).whereRef('urls.domain_id', '=', 'domains.id').as('links'),
    ]);
}

/** `q` as stored names are written, label by label: 'empaña.es' finds 'xn--empaa-rta.es' too. */
function asciiOf(q: string): string {
  try {
    return punycode.toASCII(q.toLowerCase());
  } catch {
    return q.toLowerCase();
  }
}

/** A page of domains whose name, or whose workspace's name or slug, holds `q`; run by the admin's reader. */
export async function searchAllDomains(reader: DatabaseReader, q: string, cursor: number | undefined): Promise<AdminDomainRow[]> {
  const { db } = reader;
  let query = domainsQuery(db).orderBy('domains.id', 'desc').limit(ADMIN_PAGE_SIZE + 1);
  if (cursor) query = query.where('domains.id', '<', cursor);
  if (q) {
    const like = dialectOf(db) === 'postgres' ? sql.raw('ilike') : sql.raw('like');
    const term = likeContains(q.toLowerCase());
    const ascii = likeContains(asciiOf(q));
    query = query.where((eb) =>
      eb.or([
        sql<boolean>`domains.hostname like ${term} escape '\\'`,
        sql<boolean>`domains.hostname like ${ascii} escape '\\'`,
        sql<boolean>`workspaces.slug like ${term} escape '\\'`,
        sql<boolean>`workspaces.name ${like} ${term} escape '\\'`,
      ]),
    );
  }
  return (await reader.rows(query)).map(numbers);
}

export async function findAdminDomain(db: Database, id: number): Promise<AdminDomainRow | undefined> {
  const row = await domainsQuery(db).where('domains.id', '=', id).executeTakeFirst();
  return row && numbers(row);
}

function numbers(row: Omit<AdminDomainRow, 'links'> & { links: number | string | null }): AdminDomainRow {
  return { ...row, id: Number(row.id), workspace_id: Number(row.workspace_id), links: Number(row.links ?? 0) };
}
