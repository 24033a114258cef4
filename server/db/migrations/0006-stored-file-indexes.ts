import type { Kysely } from 'kysely';

// The orphan sweep asks, for each stored file, whether a row names it (urls.qr,
// users.profile_image): without these, every batch of its question would scan a whole table.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('urls_qr_idx').on('urls').column('qr').execute();
  await db.schema.createIndex('users_profile_image_idx').on('users').column('profile_image').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_profile_image_idx').execute();
  await db.schema.dropIndex('urls_qr_idx').execute();
}
