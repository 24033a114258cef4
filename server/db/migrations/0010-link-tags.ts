import type { Kysely } from 'kysely';
import { dialectOf, idColumn, idType } from '../dialect';

// Tags on links, and the dashboard's sorts, made to cost the same at 100,000 links as at 100.
//
// A user's tag is one row (its first spelling kept as its name, its key the lowercase form it is
// compared by); a link carries it through link_tags. Filtering by a tag reads the tag's
// (tag_id, url_id) entries; the list's tags are read by url_id.
//
// The list sorts by clicks and by title as well as by date, each in both directions, and pages by
// keyset: each sort has its index starting with user_id and ending with id (the tie-breaker), so
// a page is a walk of one index. The clicks index carries the searchable title too, so a search
// in that order reads no table rows it does not return (as the date index does, migration 0005).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await db.schema
    .createTable('tags')
    .addColumn('id', idType(dialect), idColumn(dialect))
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addUniqueConstraint('tags_user_id_name_key_unique', ['user_id', 'name_key'])
    .execute();
  await db.schema
    .createTable('link_tags')
    .addColumn('tag_id', idType(dialect), (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addColumn('url_id', idType(dialect), (c) => c.notNull().references('urls.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('link_tags_pk', ['tag_id', 'url_id'])
    .execute();
  await db.schema.createIndex('link_tags_url_id_idx').on('link_tags').columns(['url_id', 'tag_id']).execute();

  await db.schema.createIndex('urls_user_id_clicks_idx').on('urls').columns(['user_id', 'click_count', 'id', 'title_search']).execute();
  await db.schema.createIndex('urls_user_id_title_idx').on('urls').columns(['user_id', 'title_search', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('urls_user_id_title_idx').execute();
  await db.schema.dropIndex('urls_user_id_clicks_idx').execute();
  await db.schema.dropTable('link_tags').execute();
  await db.schema.dropTable('tags').execute();
}
