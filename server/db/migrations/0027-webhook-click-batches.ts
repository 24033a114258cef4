import type { Kysely } from 'kysely';
import { idColumn, idType, dialectOf } from '../dialect';

// A click batch's link.clicked events for one webhook, written in the click writer's transaction
// as one row naming the clicks' rows instead of a delivery row per click: a busy link's flush
// writes one small row more, and the dispatcher turns it into deliveries when the loop has time.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  const id = idType(dialect);
  await db.schema
    .createTable('webhook_click_batches')
    .addColumn('id', id, idColumn(dialect))
    .addColumn('webhook_id', id, (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    // JSON: the clicks' id runs, and what their rows do not hold (server/webhooks/outbox.ts).
    .addColumn('clicks', 'text', (c) => c.notNull())
    .addColumn('click_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_click_batches_webhook').on('webhook_click_batches').columns(['webhook_id', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_click_batches').execute();
}

// A table of its own: the release before writes click events as delivery rows, which this one still sends.
export const compatibleWithPrevious = true;
