import { sql } from 'kysely';
import type { Database } from '../db/database';

// A link with max_clicks lets exactly that many human visits through, whatever the concurrency and
// however many instances share the database: each visit takes one of the remaining clicks with a
// single conditional UPDATE, which the database serialises on the row. Links without a limit never
// come here.

/** Takes one click of the link's limit; false when none is left (or the limit is gone). */
export async function takeLimitedClick(db: Database, urlId: number): Promise<boolean> {
  const result = await db
    .updateTable('urls')
    .set({ limit_used: sql`limit_used + 1` })
    .where('id', '=', urlId)
    .where('max_clicks', 'is not', null)
    .where((eb) => eb('limit_used', '<', eb.ref('max_clicks')))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Whether the limit is used up, for visits that do not take a click (bots, HEAD, the password form). */
export async function isLimitReached(db: Database, urlId: number): Promise<boolean> {
  const row = await db.selectFrom('urls').select(['limit_used', 'max_clicks']).where('id', '=', urlId).executeTakeFirst();
  return !row || (row.max_clicks !== null && row.limit_used >= row.max_clicks);
}

export async function passwordHashOf(db: Database, urlId: number): Promise<string | null | undefined> {
  const row = await db.selectFrom('urls').select('password_hash').where('id', '=', urlId).executeTakeFirst();
  return row?.password_hash;
}
