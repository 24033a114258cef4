import { type Kysely, sql } from 'kysely';
import { dialectOf, idColumn, idType } from '../dialect';

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const id = idColumn(dialect);
  const idRef = idType(dialect);

  await db.schema
    .createTable('users')
    .addColumn('id', idRef, id)
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('profile_image', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_email_lower_key').on('users').expression(sql`lower(email)`).unique().execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', idRef, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at_idx').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('urls')
    .addColumn('id', idRef, id)
    .addColumn('user_id', idRef, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('original_url', 'text', (c) => c.notNull())
    .addColumn('custom_url', 'text')
    .addColumn('short_url', 'text', (c) => c.notNull())
    .addColumn('qr', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('urls_short_url_key').on('urls').column('short_url').unique().execute();
  // Aliases are unique regardless of case, and looked up the same way.
  await db.schema.createIndex('urls_custom_url_lower_key').on('urls').expression(sql`lower(custom_url)`).unique().execute();
  await db.schema.createIndex('urls_user_id_created_at_idx').on('urls').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('clicks')
    .addColumn('id', idRef, id)
    .addColumn('url_id', idRef, (c) => c.notNull().references('urls.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('browser', 'text')
    .addColumn('os', 'text')
    .addColumn('referrer', 'text')
    .addColumn('is_bot', 'smallint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('clicks_url_id_created_at_idx').on('clicks').columns(['url_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['clicks', 'urls', 'sessions', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
