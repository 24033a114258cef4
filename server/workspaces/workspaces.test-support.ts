import type { WorkspaceRole } from '@common/workspaces/workspace-roles';
import type { Database } from '../db/database';
import type { LinkActor } from '../links/link-actor';
import { personalWorkspaceIdOf } from './personal-workspace';

/**
 * A team workspace written straight into the tables, with these members: for tests that need one
 * whatever the workspace routes do.
 */
export async function addTeamWorkspace(
  db: Database,
  { slug, name = slug, members }: { slug: string; name?: string; members: Array<{ userId: number; role: WorkspaceRole }> },
): Promise<{ id: number; slug: string }> {
  const now = Date.now();
  const { id } = await db.insertInto('workspaces').values({ slug, name, personal_user_id: null, created_at: now }).returning('id').executeTakeFirstOrThrow();
  if (members.length > 0) {
    await db
      .insertInto('workspace_members')
      .values(members.map(({ userId, role }) => ({ workspace_id: id, user_id: userId, role, joined_at: now })))
      .execute();
  }
  return { id: Number(id), slug };
}

/** A user acting in their personal workspace, as the links functions take them. */
export async function personalActor(db: Database, userId: number): Promise<LinkActor> {
  const workspace = await db.selectFrom('workspaces').select(['id', 'slug']).where('id', '=', await personalWorkspaceIdOf(db, userId)).executeTakeFirstOrThrow();
  const user = await db.selectFrom('users').select(['id', 'name']).where('id', '=', userId).executeTakeFirstOrThrow();
  return { workspace: { id: Number(workspace.id), slug: workspace.slug }, user: { id: Number(user.id), name: user.name } };
}
