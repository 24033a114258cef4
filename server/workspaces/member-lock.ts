import type { WorkspaceRole } from '@common/workspaces/workspace-roles';
import type { Database } from '../db/database';
import { dialectOf } from '../db/dialect';

// "Every workspace keeps an owner", held under concurrency. A change that can take an owner away
// (a demotion, a removal, leaving, an account deleted) runs in one transaction that first reads the
// workspace's member rows under lock, then decides, then writes: two owners demoting each other at
// the same moment are serialized, and the second sees the first's change.
// PostgreSQL: SELECT ... FOR UPDATE on the member rows (the second transaction waits, then reads
// the committed rows). SQLite: Kysely runs a transaction on the one writing connection, so nothing
// else interleaves.

export interface LockedMember {
  workspaceId: number;
  userId: number;
  role: WorkspaceRole;
}

/** The members of these workspaces, their rows locked until the transaction ends. */
export async function lockMembers(trx: Database, workspaceIds: number[]): Promise<LockedMember[]> {
  if (workspaceIds.length === 0) return [];
  let query = trx
    .selectFrom('workspace_members')
    .select(['workspace_id', 'user_id', 'role'])
    .where('workspace_id', 'in', workspaceIds)
    .orderBy('workspace_id')
    .orderBy('user_id');
  if (dialectOf(trx) === 'postgres') query = query.forUpdate();
  const rows = await query.execute();
  return rows.map((row) => ({ workspaceId: Number(row.workspace_id), userId: Number(row.user_id), role: row.role }));
}

export const ownersAmong = (members: LockedMember[]) => members.filter((member) => member.role === 'owner');
