import { type Kysely, sql } from 'kysely';

// Aliases are unique regardless of case, and looked up the same way. The index used to be on
// lower(custom_url), but SQLite's lower() folds ASCII only, and PostgreSQL's follows the database's
// locale (ASCII only under 'C'): 'Ñoquis' and 'ñoquis' would both be accepted, and a visit to one
// would miss the other. So the compared form is now computed once, by the server, in one way for
// both databases (addressKey in common/links/short-address.ts: lowercase, NFC), and stored beside
// the alias as typed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  // The check keeps every writer honest: an alias never goes in without its key.
  await db.schema
    .alterTable('urls')
    .addColumn('custom_url_key', 'text', (c) => c.check(sql`(custom_url is null) = (custom_url_key is null)`))
    .execute();
  // Aliases so far were ASCII letters, digits, '-' and '_', which both databases' lower() folds exactly.
  await sql`update urls set custom_url_key = lower(custom_url) where custom_url is not null`.execute(db);
  await db.schema.dropIndex('urls_custom_url_lower_key').execute();
  await db.schema.createIndex('urls_custom_url_key_key').on('urls').column('custom_url_key').unique().execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('urls_custom_url_key_key').execute();
  await db.schema.alterTable('urls').dropColumn('custom_url_key').execute();
  await db.schema.createIndex('urls_custom_url_lower_key').on('urls').expression(sql`lower(custom_url)`).unique().execute();
}
