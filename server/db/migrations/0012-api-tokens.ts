import type { Kysely } from 'kysely';
import { dialectOf, idColumn, idType } from '../dialect';

// Personal API tokens: programs call the API with `Authorization: Bearer <secret>`. Only a
// SHA-256 of the secret is kept (the secret has 256 random bits, so a fast hash is enough; a
// copy of the database yields no usable token); revoking deletes the row.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', idType(dialect), idColumn(dialect))
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    // The secret's first characters, shown so its owner can tell tokens apart.
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_tokens_user_id_idx').on('api_tokens').column('user_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_tokens').execute();
}
