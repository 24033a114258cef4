import { workspaceMessages } from '@common/workspaces/workspace-messages';
import { sql } from 'kysely';
import type { Database } from '../db/database';
import { AppError } from '../http/app-error';
import { lockMembers, ownersAmong } from './member-lock';

// What becomes of an account's workspaces when the account is deleted (by its user or by an
// operator: both end in deleteAccount). Its personal workspace goes with it, and so does a team
// workspace where it is the only member; a team workspace with others stays, and keeps the links
// the account created there. The last owner of a team with other members cannot go: ownership
// passes on first.

export interface LeaveOptions {
  /** The 409's sentence naming the workspaces (the operator's by default). */
  lastOwnerMessage?: (names: string[]) => string;
}

/**
 * Inside the account deletion's transaction, before the user's row goes: refuses (409) when the
 * user is the last owner of a team workspace with other members; hands the links the user created
 * in the workspaces that stay to an owner of each; returns the ids of the workspaces to delete
 * with the account (its personal one, the teams it is alone in).
 */
export async function leaveWorkspacesOf(trx: Database, userId: number, options: LeaveOptions = {}): Promise<number[]> {
  const memberships = await trx
    .selectFrom('workspace_members')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
    .select(['workspaces.id', 'workspaces.name', 'workspaces.personal_user_id'])
    .where('workspace_members.user_id', '=', userId)
    .orderBy('workspaces.name')
    .execute();
  const members = await lockMembers(trx, memberships.map((row) => Number(row.id)));
  const deleted: number[] = [];
  const blocking: string[] = [];
  for (const workspace of memberships) {
    const id = Number(workspace.id);
    const here = members.filter((member) => member.workspaceId === id);
    const others = here.filter((member) => member.userId !== userId);
    if (workspace.personal_user_id !== null || others.length === 0) deleted.push(id);
    else if (ownersAmong(others).length === 0) blocking.push(workspace.name);
  }
  if (blocking.length > 0) {
    throw new AppError('conflict', (options.lastOwnerMessage ?? workspaceMessages.userLastOwnerOfTeams)(blocking));
  }

  // urls.user_id references users with ON DELETE CASCADE: left as it is, deleting the user would
  // delete the links they created in a team's workspace, which belong to the team. Each goes to an
  // owner of its workspace (the longest-standing), who answers for it from now on.
  const anOwner = () =>
    trx
      .selectFrom('workspace_members')
      .select('workspace_members.user_id')
      .where('workspace_members.workspace_id', '=', sql.ref<number>('urls.workspace_id'))
      .where('workspace_members.role', '=', 'owner')
      .where('workspace_members.user_id', '<>', userId)
      .orderBy('workspace_members.joined_at')
      .orderBy('workspace_members.user_id')
      .limit(1);
  let handOver = trx
    .updateTable('urls')
    .set({ user_id: anOwner() })
    .where('urls.user_id', '=', userId)
    .where((eb) => eb.exists(anOwner()));
  if (deleted.length > 0) handOver = handOver.where('urls.workspace_id', 'not in', deleted);
  await handOver.execute();
  return deleted;
}
