import type { Kysely } from 'kysely';

// The click writer's batches already written, by the id the writer gave each. A batch whose commit
// went through but whose answer never came back (a network partition between the server and
// PostgreSQL, a writer thread gone between the two) is sent again, and must not be counted twice:
// its id is written in the batch's own transaction, so the second time finds it and writes nothing.
// Ids are kept a day or two (pruned with the day's visitor hashes); a batch is only ever retried
// within seconds, by the process that made it.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('click_batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('written_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('click_batches_written_at_idx').on('click_batches').column('written_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('click_batches').execute();
}
