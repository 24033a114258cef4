import type { Database } from '../db/database';
import type { NewUserRow, UserRow } from '../db/schema';
import { searchText } from '../db/search-text';

// One query each; e-mails compare regardless of case (the users_email_lower_key index).

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

export async function insertUser(db: Database, user: NewUserRow): Promise<UserRow> {
  return db.insertInto('users').values({ ...user, name_search: searchText(user.name) }).returningAll().executeTakeFirstOrThrow();
}
