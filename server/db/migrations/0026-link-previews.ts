import type { Kysely } from 'kysely';

// A link's card for chat apps' previews (docs/links.md): its title, description and the storage
// key of its image (bucket 'previews'), all null for a link without one, which the redirect and
// every crawler see as before.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  for (const name of ['preview_title', 'preview_description', 'preview_image_key']) {
    await db.schema.alterTable('urls').addColumn(name, 'text').execute();
  }
  // The orphan sweep asks which of a batch of files a row names (as for the QRs, migration 0006).
  await db.schema.createIndex('urls_preview_image_key').on('urls').column('preview_image_key').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('urls_preview_image_key').execute();
  for (const name of ['preview_image_key', 'preview_description', 'preview_title']) {
    await db.schema.alterTable('urls').dropColumn(name).execute();
  }
}

// Nullable columns the release before never reads: it runs on them unchanged (and shows no card).
export const compatibleWithPrevious = true;
