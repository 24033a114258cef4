import type { Kysely } from 'kysely';
import { dialectOf, idColumn, idType } from '../dialect';

// Where a visit goes (docs/rules.md). urls.rules and urls.variants hold a link's rules and A/B
// variants as JSON (checked by common/rules/rule-schemas.ts before they are written), null for a
// plain link; urls.redirect_type its status (302 unless told).
//
// link_destinations names each URL a rule or a variant has sent visitors to, once per (link,
// source, url): a click keeps the id of where it went (clicks.destination_id; null for the link's
// own URL), so the counts per destination stay right when the rules are edited or reordered.
// click_destination_visitors counts unique visitors per destination and day as click_visitors
// does per link (the visitor hash's salt changes daily), with each one's clicks. The counts per destination are roll-ups of
// dimension 'destination' (value: the destination's id, '' for the link's own URL).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  const id = idType(dialect);
  const urls = () => db.schema.alterTable('urls');
  await urls().addColumn('rules', 'text').execute();
  await urls().addColumn('variants', 'text').execute();
  await urls().addColumn('redirect_type', 'smallint', (c) => c.notNull().defaultTo(302)).execute();
  await db.schema
    .createTable('link_destinations')
    .addColumn('id', id, idColumn(dialect))
    .addColumn('url_id', id, (c) => c.notNull().references('urls.id').onDelete('cascade'))
    // 'rule' or 'variant'
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('link_destinations_url_key').on('link_destinations').columns(['url_id', 'source', 'url']).unique().execute();
  await db.schema.alterTable('clicks').addColumn('destination_id', id).execute();
  await db.schema
    .createTable('click_destination_visitors')
    .addColumn('url_id', id, (c) => c.notNull().references('urls.id').onDelete('cascade'))
    .addColumn('day', 'integer', (c) => c.notNull())
    // 0 for the link's own URL.
    .addColumn('destination_id', id, (c) => c.notNull())
    .addColumn('visitor_hash', 'text', (c) => c.notNull())
    // The visitor's human clicks there that day: 2 or more is a visitor who came back, what an A/B
    // test compares between variants.
    .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(1))
    .addPrimaryKeyConstraint('click_destination_visitors_pkey', ['url_id', 'destination_id', 'day', 'visitor_hash'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('click_destination_visitors').execute();
  await db.schema.alterTable('clicks').dropColumn('destination_id').execute();
  await db.schema.dropTable('link_destinations').execute();
  for (const name of ['redirect_type', 'variants', 'rules']) await db.schema.alterTable('urls').dropColumn(name).execute();
}

// Columns with defaults and tables of their own: the release before runs on it, sending every
// visit to the link's own URL (a link's rules wait for this release).
export const compatibleWithPrevious = true;
