import type { Database } from '../db/database';

let counter = 0;

/**
 * A workspace's domain written straight into the table (the domain routes are tested on their
 * own): verified unless told, enabled unless `disabled`, in a workspace of its own when none is
 * given. Its id.
 */
export async function insertDomain(
  db: Database,
  domain: {
    hostname: string;
    workspaceId?: number;
    verified?: boolean;
    disabled?: boolean;
    rootRedirect?: string | null;
    notFoundRedirect?: string | null;
  },
): Promise<number> {
  counter += 1;
  const now = Date.now();
  const workspaceId =
    domain.workspaceId ??
    Number(
      (await db.insertInto('workspaces').values({ slug: `dominio-${counter}-${now}`, name: 'Dominio', created_at: now }).returning('id').executeTakeFirstOrThrow())
        .id,
    );
  const row = await db
    .insertInto('domains')
    .values({
      workspace_id: workspaceId,
      hostname: domain.hostname,
      verification_token: `token-${counter}`,
      verified_at: domain.verified === false ? null : now,
      disabled_at: domain.disabled ? now : null,
      root_redirect: domain.rootRedirect ?? null,
      not_found_redirect: domain.notFoundRedirect ?? null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
