import { type Kysely, sql } from 'kysely';
import { dialectOf, idType } from '../dialect';

// Links that change after creation: edited (updated_at), paused, expiring by date or by clicks,
// protected by a password, and moved to a new alias while the old ones keep redirecting.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  const urls = () => db.schema.alterTable('urls');
  await urls().addColumn('updated_at', 'bigint').execute();
  await urls().addColumn('paused', 'smallint', (c) => c.notNull().defaultTo(0)).execute();
  await urls().addColumn('expires_at', 'bigint').execute();
  await urls().addColumn('max_clicks', 'integer').execute();
  // Human visits counted against max_clicks, at redirect time, by an atomic conditional update.
  await urls().addColumn('limit_used', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await urls().addColumn('password_hash', 'text').execute();
  await sql`update urls set updated_at = created_at`.execute(db);

  // Former aliases of a link, still redirecting to it until their owner frees them. alias_key is
  // addressKey(alias), the same form urls.custom_url_key holds; unique on its own, and checked
  // against the links' codes and aliases by the server before it goes in.
  await db.schema
    .createTable('former_aliases')
    .addColumn('alias_key', 'text', (c) => c.primaryKey())
    .addColumn('alias', 'text', (c) => c.notNull())
    .addColumn('url_id', idType(dialectOf(db)), (c) => c.notNull().references('urls.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('former_aliases_url_id_idx').on('former_aliases').column('url_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('former_aliases').execute();
  for (const name of ['password_hash', 'limit_used', 'max_clicks', 'expires_at', 'paused', 'updated_at']) {
    await db.schema.alterTable('urls').dropColumn(name).execute();
  }
}
