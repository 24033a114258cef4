import { sql } from 'kysely';
import type { Database } from '../db/database';
import type { DatabaseReader } from '../db/database-reader';
import { dialectOf } from '../db/dialect';
import { likeContains } from '../links/links.queries';
import { ADMIN_PAGE_SIZE } from './admin-users.queries';

// The operator's list of workspaces, newest first. Links and clicks come from workspace_link_totals
// (kept by triggers), members from one count per row of the page: a page costs the same whatever
// the workspaces hold.

export interface AdminWorkspaceRow {
  id: number;
  slug: string;
  name: string;
  personal_user_id: number | null;
  created_at: number;
  members: number;
  links: number;
  clicks: number;
}

function workspacesQuery(db: Database) {
  return db
    .selectFrom('workspaces')
    .leftJoin('workspace_link_totals', 'workspace_link_totals.workspace_id', 'workspaces.id')
    .select((eb) => [
      'workspaces.id',
      'workspaces.slug',
      'workspaces.name',
      'workspaces.personal_user_id',
      'workspaces.created_at',
      eb
        .selectFrom('workspace_members')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('workspace_members.workspace_id', '=', 'workspaces.id')
        .as('members'),
      sql<number>`coalesce(workspace_link_totals.links, 0)`.as('links'),
      sql<number>`coalesce(workspace_link_totals.clicks, 0)`.as('clicks'),
    ]);
}

/** A page of workspaces whose name or slug holds `q` (any case); run by the admin's reader. */
export async function searchWorkspaces(reader: DatabaseReader, q: string, cursor: number | undefined): Promise<AdminWorkspaceRow[]> {
  const { db } = reader;
  let query = workspacesQuery(db).orderBy('workspaces.id', 'desc').limit(ADMIN_PAGE_SIZE + 1);
  if (cursor) query = query.where('workspaces.id', '<', cursor);
  if (q) {
    // SQLite's LIKE ignores ASCII case by itself; PostgreSQL's ILIKE. Slugs are lowercase already.
    const like = dialectOf(db) === 'postgres' ? sql.raw('ilike') : sql.raw('like');
    const term = likeContains(q.toLowerCase());
    query = query.where((eb) =>
      eb.or([sql<boolean>`workspaces.name ${like} ${term} escape '\\'`, sql<boolean>`workspaces.slug like ${term} escape '\\'`]),
    );
  }
  return (await reader.rows(query)).map(numbers);
}

export async function findAdminWorkspace(db: Database, id: number): Promise<AdminWorkspaceRow | undefined> {
  const row = await workspacesQuery(db).where('workspaces.id', '=', id).executeTakeFirst();
  return row && numbers(row);
}

function numbers(row: Omit<AdminWorkspaceRow, 'members'> & { members: number | null }): AdminWorkspaceRow {
  return { ...row, id: Number(row.id), members: Number(row.members ?? 0), links: Number(row.links), clicks: Number(row.clicks) };
}
