import type { Kysely } from 'kysely';
import { dialectOf, idType } from '../dialect';

// Statistics never scan raw clicks: the click writer keeps these up to date in the same
// transaction as the raw rows, so counts answer at once however many clicks a link has.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  const idRef = idType(dialectOf(db));

  // Human GET clicks only (bots and HEAD are left out), for the dashboard's counts.
  await db.schema
    .alterTable('urls')
    .addColumn('click_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('click_rollups')
    .addColumn('url_id', idRef, (c) => c.notNull().references('urls.id').onDelete('cascade'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('clicks', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('click_rollups_pkey', ['url_id', 'dimension', 'day', 'value'])
    .execute();

  // Today's visitors per link, to count each once; older days are deleted once counted.
  await db.schema
    .createTable('click_visitors')
    .addColumn('url_id', idRef, (c) => c.notNull().references('urls.id').onDelete('cascade'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('visitor_hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('click_visitors_pkey', ['url_id', 'day', 'visitor_hash'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('click_visitors').execute();
  await db.schema.dropTable('click_rollups').execute();
  await db.schema.alterTable('urls').dropColumn('click_count').execute();
}
