import type { Database } from '../db/database';
import type { NewUserRow, UserRow } from '../db/schema';
import { searchText } from '../db/search-text';
import { createPersonalWorkspace } from '../workspaces/personal-workspace';

// One query each; e-mails compare regardless of case (the users_email_lower_key index).

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

/** A new account and its personal workspace, together or not at all. */
export async function insertUser(db: Database, user: NewUserRow): Promise<UserRow> {
  const insert = async (db: Database) => {
    const row = await db.insertInto('users').values({ ...user, name_search: searchText(user.name) }).returningAll().executeTakeFirstOrThrow();
    await createPersonalWorkspace(db, row, row.created_at);
    return row;
  };
  return db.isTransaction ? insert(db) : db.transaction().execute(insert);
}
