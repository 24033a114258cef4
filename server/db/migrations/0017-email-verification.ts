import type { Kysely } from 'kysely';
import { dialectOf, idType } from '../dialect';

// Proved e-mail addresses: an account confirms its address by a link sent there, and ADMIN_EMAILS
// only promotes an account whose listed address is proved, once per account and address.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  const users = () => db.schema.alterTable('users');
  // When the account confirmed its current address; a new address clears it.
  await users().addColumn('email_verified_at', 'bigint').execute();
  // The address (lowercase) ADMIN_EMAILS has acted on for this account: it promoted it, or an admin
  // demoted it while it held the address. ADMIN_EMAILS never promotes an account twice for one.
  await users().addColumn('admin_grant_email', 'text').execute();

  // Verification links: valid a day, once; only the hash is kept, with the address it was sent to.
  await db.schema
    .createTable('email_verifications')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', idType(dialectOf(db)), (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('email_verifications_user_id_idx').on('email_verifications').column('user_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_verifications').execute();
  await db.schema.alterTable('users').dropColumn('admin_grant_email').execute();
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}

// Two nullable columns and a table: the release before it runs on this schema unchanged.
export const compatibleWithPrevious = true;
