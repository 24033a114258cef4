import type { Kysely } from 'kysely';
import { dialectOf, idColumn, idType } from '../dialect';

// Webhooks (docs/webhooks.md). A webhook belongs to a workspace and goes with it; its secret is
// kept as it is because every delivery is signed with it (it is shown once, and never logged).
// webhook_links is its optional filter (`filtered` says one was set, so a filter whose last link
// was deleted receives nothing rather than everything). webhook_deliveries is the outbox: a row is
// written in the same transaction as what it announces, and is the delivery log as well.
// locked_until is the lease of the instance sending it; next_attempt_at null means no attempt is
// planned (delivered, or failed for good).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  const id = idType(dialect);
  await db.schema
    .createTable('webhooks')
    .addColumn('id', id, idColumn(dialect))
    .addColumn('workspace_id', id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    // A JSON array of event names.
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('filtered', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'smallint', (c) => c.notNull().defaultTo(1))
    .addColumn('disabled_reason', 'text')
    .addColumn('failures_in_a_row', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_workspace').on('webhooks').column('workspace_id').execute();
  await db.schema
    .createTable('webhook_links')
    .addColumn('webhook_id', id, (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('url_id', id, (c) => c.notNull().references('urls.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('webhook_links_pkey', ['webhook_id', 'url_id'])
    .execute();
  await db.schema.createIndex('webhook_links_url').on('webhook_links').column('url_id').execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', id, idColumn(dialect))
    .addColumn('webhook_id', id, (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull())
    // The exact body sent and signed: { type, timestamp, data }.
    .addColumn('payload', 'text', (c) => c.notNull())
    // 'pending', 'delivered' or 'failed'
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('locked_until', 'bigint')
    .addColumn('response_status', 'integer')
    .addColumn('duration_ms', 'integer')
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // The dispatcher's claim: a webhook's due rows, oldest first.
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['webhook_id', 'status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_log').on('webhook_deliveries').columns(['webhook_id', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_links').execute();
  await db.schema.dropTable('webhooks').execute();
}

// Tables of their own: the release before runs on it and simply sends no webhook.
export const compatibleWithPrevious = true;
