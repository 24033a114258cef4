import type { Kysely } from 'kysely';

// The CSV export pages through one link's clicks by id (keyset): this index walks them in id
// order from any point, instead of sorting all of a link's clicks for every page.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('clicks_url_id_id_idx').on('clicks').columns(['url_id', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('clicks_url_id_id_idx').execute();
}
