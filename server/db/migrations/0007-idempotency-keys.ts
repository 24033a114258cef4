import type { Kysely } from 'kysely';
import { dialectOf, idType } from '../dialect';

// Idempotency-Key answers, in the database so every instance sees the same keys: a retry of a
// creation gets the first answer instead of making a second link.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', idType(dialectOf(db)), (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    // SHA-256 of the route and the request's body: the same key with other data is refused.
    .addColumn('request_hash', 'text', (c) => c.notNull())
    // Both null while the first request is still running.
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['user_id', 'key'])
    .execute();
  // Expiry deletes by age.
  await db.schema.createIndex('idempotency_keys_created_at_idx').on('idempotency_keys').column('created_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
