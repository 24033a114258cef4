import type { Workspace } from '@common/workspaces/workspace-schemas';
import type { WorkspaceRole } from '@common/workspaces/workspace-roles';
import { sql } from 'kysely';
import type { Database } from '../db/database';
import type { CallerWorkspace } from './workspace-access';

// The workspaces' own rows: the caller's list, a team workspace made, renamed, counted.

export const workspaceOf = (workspace: CallerWorkspace): Workspace => ({
  id: Number(workspace.id),
  slug: workspace.slug,
  name: workspace.name,
  personal: workspace.personal,
  role: workspace.role,
});

/** The workspaces the user belongs to with their role: the personal one first, then by name. */
export async function workspacesOf(db: Database, userId: number): Promise<Workspace[]> {
  const rows = await db
    .selectFrom('workspaces')
    .innerJoin('workspace_members', 'workspace_members.workspace_id', 'workspaces.id')
    .select(['workspaces.id', 'workspaces.slug', 'workspaces.name', 'workspaces.personal_user_id', 'workspace_members.role'])
    .where('workspace_members.user_id', '=', userId)
    .orderBy(sql`case when workspaces.personal_user_id is null then 1 else 0 end`)
    .orderBy(sql`lower(workspaces.name)`)
    .orderBy('workspaces.id')
    .execute();
  return rows.map((row) => workspaceOf({ ...row, personal: row.personal_user_id !== null }));
}

/** Team workspaces the user owns (WORKSPACES_PER_USER bounds them). */
export async function countOwnedTeams(db: Database, userId: number): Promise<number> {
  const row = await db
    .selectFrom('workspace_members')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_members.user_id', '=', userId)
    .where('workspace_members.role', '=', 'owner')
    .where('workspaces.personal_user_id', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A team workspace with `owner` as its owner; run in a transaction. */
export async function insertTeamWorkspace(db: Database, owner: number, name: string, slug: string, now = Date.now()): Promise<CallerWorkspace> {
  const { id } = await db
    .insertInto('workspaces')
    .values({ slug, name, personal_user_id: null, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('workspace_members').values({ workspace_id: id, user_id: owner, role: 'owner', joined_at: now }).execute();
  return { id: Number(id), slug, name, personal: false, role: 'owner' };
}

export async function slugTaken(db: Database, slug: string, except?: number): Promise<boolean> {
  let query = db.selectFrom('workspaces').select('id').where('slug', '=', slug);
  if (except !== undefined) query = query.where('id', '<>', except);
  return (await query.executeTakeFirst()) !== undefined;
}

export interface MemberRow {
  user_id: number;
  name: string;
  email: string;
  profile_image: string;
  role: WorkspaceRole;
  joined_at: number;
}

/** The workspace's members, the longest-standing first. */
export async function membersOf(db: Database, workspaceId: number): Promise<MemberRow[]> {
  return db
    .selectFrom('workspace_members')
    .innerJoin('users', 'users.id', 'workspace_members.user_id')
    .select(['workspace_members.user_id', 'users.name', 'users.email', 'users.profile_image', 'workspace_members.role', 'workspace_members.joined_at'])
    .where('workspace_members.workspace_id', '=', workspaceId)
    .orderBy('workspace_members.joined_at')
    .orderBy('workspace_members.user_id')
    .execute();
}
