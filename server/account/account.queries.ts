import type { Database } from '../db/database';
import type { UserRow } from '../db/schema';
import { searchText } from '../db/search-text';

// One query each, for the account's own routes.

export async function findUser(db: Database, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateUser(db: Database, id: number, values: Partial<Pick<UserRow, 'name' | 'email' | 'profile_image' | 'password_hash' | 'email_verified_at'>>) {
  // A new name brings its searchable copy (the operator's accent-insensitive search).
  const row = values.name === undefined ? values : { ...values, name_search: searchText(values.name) };
  return db.updateTable('users').set(row).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Ends every session of the user but the one whose token hash is kept (none when undefined). */
export async function endSessionsOf(db: Database, userId: number, keepTokenHash?: string): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepTokenHash) query = query.where('token_hash', '<>', keepTokenHash);
  await query.execute();
}

export async function listSessions(db: Database, userId: number, now: number) {
  return db
    .selectFrom('sessions')
    .select(['token_hash', 'public_id', 'created_at', 'last_seen_at', 'user_agent'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
}

/** Whether a session of the user was removed. */
export async function endSession(db: Database, userId: number, publicId: string): Promise<boolean> {
  const result = await db.deleteFrom('sessions').where('user_id', '=', userId).where('public_id', '=', publicId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
