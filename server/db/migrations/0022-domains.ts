import type { Kysely } from 'kysely';
import { dialectOf, idColumn, idType } from '../dialect';

// A workspace's own domains (docs/domains.md). A link on one has urls.domain_id; null is the
// instance's own host, so every existing link stays where it is and no row is rewritten.
//
// Addresses are unique per domain through the keys already unique: a link on a domain keeps
// domainAddressKey(domain, alias) ('{domain id}/{addressKey}', never a path segment) in
// urls.custom_url_key, former_aliases.alias_key and held_codes.code_key. Short codes stay unique
// across the instance.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  const id = idType(dialect);
  await db.schema
    .createTable('domains')
    .addColumn('id', id, idColumn(dialect))
    .addColumn('workspace_id', id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    // Lower case and punycode: one spelling per name, so the unique index settles a race.
    .addColumn('hostname', 'text', (c) => c.notNull().unique())
    // What the TXT record at _corto-challenge.{hostname} must hold.
    .addColumn('verification_token', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'bigint')
    .addColumn('root_redirect', 'text')
    .addColumn('not_found_redirect', 'text')
    // Set while an operator keeps the domain disabled: its links answer 410.
    .addColumn('disabled_at', 'bigint')
    .addColumn('created_by', id, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('domains_workspace_id_idx').on('domains').columns(['workspace_id', 'id']).execute();
  // No cascade: a domain that links use is not deleted (409), and a workspace's deletion removes
  // its links before its domains.
  await db.schema.alterTable('urls').addColumn('domain_id', id, (c) => c.references('domains.id')).execute();
  await db.schema.createIndex('urls_domain_id_idx').on('urls').columns(['domain_id', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('urls_domain_id_idx').execute();
  await db.schema.alterTable('urls').dropColumn('domain_id').execute();
  await db.schema.dropTable('domains').execute();
}

// A table and a nullable column: the release before runs on it, serving the links it knows (a link
// made on a domain meanwhile would answer on the instance's host too, by its short code).
export const compatibleWithPrevious = true;
