import { type Kysely, sql } from 'kysely';
import { dialectOf, idType } from '../dialect';

// Accounts that last: sessions a user can list and end (a public id, the browser, last seen),
// password recovery by e-mail, and two-factor sign-in (TOTP) with recovery codes.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  const userId = idType(dialectOf(db));
  const sessions = () => db.schema.alterTable('sessions');
  // What the account page names a session by: never its token's hash, which is the lookup key.
  await sessions().addColumn('public_id', 'text').execute();
  await sessions().addColumn('user_agent', 'text').execute();
  await sessions().addColumn('last_seen_at', 'bigint').execute();
  // Sessions of before: an id from their hash (a hash of a hash: it leads back to nothing).
  await sql`update sessions set public_id = substr(token_hash, 41, 24), last_seen_at = created_at`.execute(db);
  await db.schema.createIndex('sessions_public_id_key').on('sessions').column('public_id').unique().execute();

  const users = () => db.schema.alterTable('users');
  // Base32 TOTP secret once confirmed (two-factor on); the one being set up until then.
  await users().addColumn('totp_secret', 'text').execute();
  await users().addColumn('totp_pending_secret', 'text').execute();
  // The last time step a code was accepted for: a code seen once is never taken again.
  await users().addColumn('totp_last_step', 'bigint').execute();

  await db.schema
    .createTable('totp_recovery_codes')
    .addColumn('user_id', userId, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addPrimaryKeyConstraint('totp_recovery_codes_pkey', ['user_id', 'code_hash'])
    .execute();

  // A password that was right on an account with two-factor: the code is asked next.
  await db.schema
    .createTable('totp_challenges')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', userId, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('totp_challenges_user_id_idx').on('totp_challenges').column('user_id').execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', userId, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('password_resets_user_id_idx').on('password_resets').column('user_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['password_resets', 'totp_challenges', 'totp_recovery_codes']) await db.schema.dropTable(table).execute();
  for (const name of ['totp_last_step', 'totp_pending_secret', 'totp_secret']) await db.schema.alterTable('users').dropColumn(name).execute();
  await db.schema.dropIndex('sessions_public_id_key').execute();
  for (const name of ['last_seen_at', 'user_agent', 'public_id']) await db.schema.alterTable('sessions').dropColumn(name).execute();
}
