import type { Database } from '../db/database';

/**
 * A workspace's domain written straight into the table (the domain routes are tested on their
 * own): verified unless told otherwise, enabled unless `disabled`.
 */
export async function insertDomain(
  db: Database,
  workspaceId: number,
  hostname: string,
  { verified = true, disabled = false }: { verified?: boolean; disabled?: boolean } = {},
): Promise<{ id: number; hostname: string }> {
  const now = Date.now();
  const { id } = await db
    .insertInto('domains')
    .values({
      workspace_id: workspaceId,
      hostname,
      verification_token: `token-${hostname}`,
      verified_at: verified ? now : null,
      disabled_at: disabled ? now : null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(id), hostname };
}
