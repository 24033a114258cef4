import { isReservedPath } from '@common/reserved-paths';
import { slugCandidate, slugFromName } from '@common/workspaces/workspace-slug';
import type { Database } from '../db/database';
import { isUniqueViolation } from '../db/dialect';

// Every account has a personal workspace, made with it: its links, tags and tokens live there unless
// the caller names another (docs/workspaces.md). Its slug comes from the name, made unique.

/** The first free slug for `name` (the base for nothing usable: 'espacio'). */
export async function freeSlugFor(db: Database, name: string): Promise<string> {
  const base = slugFromName(name) || 'espacio';
  const candidates = Array.from({ length: 20 }, (_, i) => slugCandidate(base, i + 1)).filter((slug) => !isReservedPath(slug));
  const taken = new Set(
    (await db.selectFrom('workspaces').select('slug').where('slug', 'in', candidates).execute()).map((row) => row.slug),
  );
  const free = candidates.find((slug) => !taken.has(slug));
  // Twenty namesakes: a random suffix rather than a longer walk.
  return free ?? slugCandidate(base, 1000 + Math.floor(Math.random() * 9_000_000));
}

/** Makes `user`'s personal workspace with them as owner; returns its id. Run in the sign-up's transaction. */
export async function createPersonalWorkspace(db: Database, user: { id: number; name: string }, now = Date.now()): Promise<number> {
  for (let attempt = 0; ; attempt += 1) {
    const slug = await freeSlugFor(db, user.name);
    try {
      const { id } = await db
        .insertInto('workspaces')
        .values({ slug, name: user.name, personal_user_id: user.id, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('workspace_members').values({ workspace_id: id, user_id: user.id, role: 'owner', joined_at: now }).execute();
      return id;
    } catch (error) {
      // A namesake signed up at the same moment and took the slug: the next free one.
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

/** The id of `userId`'s personal workspace (every account has one, made with it). */
export async function personalWorkspaceIdOf(db: Database, userId: number): Promise<number> {
  const row = await db.selectFrom('workspaces').select('id').where('personal_user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.id);
}
