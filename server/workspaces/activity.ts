import type { ActivityAction } from '@common/workspaces/workspace-schemas';
import type { Database } from '../db/database';

// Who did what in a workspace (GET /api/workspaces/:slug/activity). Written in the same transaction
// as the change it records, so the list never claims what did not happen.

export interface ActivityEntryInput {
  workspaceId: number;
  actor: { id: number; name: string } | null;
  action: ActivityAction;
  target: string;
  detail?: string | null;
}

export async function recordActivity(db: Database, entries: ActivityEntryInput | ActivityEntryInput[], now = Date.now()): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries];
  if (list.length === 0) return;
  await db
    .insertInto('workspace_activity')
    .values(
      list.map((entry) => ({
        workspace_id: entry.workspaceId,
        actor_id: entry.actor?.id ?? null,
        actor_name: entry.actor?.name ?? 'Corto',
        action: entry.action,
        target: entry.target,
        detail: entry.detail ?? null,
        created_at: now,
      })),
    )
    .execute();
}
