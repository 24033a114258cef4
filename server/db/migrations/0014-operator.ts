import type { Kysely } from 'kysely';
import { dialectOf, idColumn, idType } from '../dialect';

// The operator's side: roles and disabled accounts, links disabled by an operator, sign-up
// settings and invites, blocked destination domains, abuse reports and the audit log.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await db.schema.alterTable('users').addColumn('role', 'text', (c) => c.notNull().defaultTo('user')).execute();
  await db.schema.alterTable('users').addColumn('disabled_at', 'bigint').execute();
  await db.schema.alterTable('urls').addColumn('disabled_at', 'bigint').execute();
  await db.schema.alterTable('urls').addColumn('disabled_reason', 'text').execute();
  // The admin lists read these newest first.
  await db.schema.createIndex('users_role_idx').on('users').column('role').execute();

  // One row per setting (signup); the environment wins over it where it sets one.
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  // A domain blocks itself and its subdomains; kept lowercase, without a final dot.
  await db.schema
    .createTable('blocked_domains')
    .addColumn('domain', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  // Single-use invitations; only the SHA-256 of the code is kept.
  await db.schema
    .createTable('invites')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text')
    .addColumn('created_by', idType(dialect))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();

  await db.schema
    .createTable('reports')
    .addColumn('id', idType(dialect), idColumn(dialect))
    .addColumn('reported_link', 'text', (c) => c.notNull())
    .addColumn('url_id', idType(dialect), (c) => c.references('urls.id').onDelete('set null'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('resolved_at', 'bigint')
    .execute();
  await db.schema.createIndex('reports_created_at_idx').on('reports').column('created_at').execute();

  // Who did what to what, and when. The admin's e-mail is copied: the log outlives the account.
  await db.schema
    .createTable('audit_log')
    .addColumn('id', idType(dialect), idColumn(dialect))
    .addColumn('admin_id', idType(dialect), (c) => c.notNull())
    .addColumn('admin_email', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['audit_log', 'reports', 'invites', 'blocked_domains', 'settings']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex('users_role_idx').execute();
  await db.schema.alterTable('urls').dropColumn('disabled_reason').execute();
  await db.schema.alterTable('urls').dropColumn('disabled_at').execute();
  await db.schema.alterTable('users').dropColumn('disabled_at').execute();
  await db.schema.alterTable('users').dropColumn('role').execute();
}
