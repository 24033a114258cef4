import { type Kysely, sql, type Transaction } from 'kysely';
import { searchText } from '../search-text';

// The title filter matched lower(title) over every row of a user, on the event loop, and only
// case-insensitively. Titles now get a searchable copy (searchText: no accents, lowercase), computed
// in JS so both databases match alike, and the user's index carries it: a search walks the index
// newest first and stops at a page of matches; a rare term or a miss reads only index entries.

const BACKFILL_ROWS = 1000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
type AnyDb = Kysely<any>;

/** Every existing title's searchable copy, a batch at a time (memory stays flat for a million links). */
async function backfill(db: AnyDb): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await db
      .selectFrom('urls')
      .select(['id', 'title'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BACKFILL_ROWS)
      .execute();
    if (rows.length === 0) return;
    // One statement per batch; the cast types PostgreSQL's parameters (text otherwise).
    const values = sql.join(rows.map((row) => sql`(cast(${row.id} as bigint), ${searchText(row.title)})`));
    await sql`with v(id, title_search) as (values ${values})
      update urls set title_search = v.title_search from v where urls.id = v.id`.execute(db);
    after = Number(rows.at(-1)!.id);
  }
}

/** All or nothing on SQLite too (PostgreSQL's migrator already runs in a transaction). */
function atomically(db: AnyDb, work: (db: AnyDb) => Promise<void>): Promise<void> {
  return db.isTransaction ? work(db) : db.transaction().execute((trx: Transaction<unknown>) => work(trx as AnyDb));
}

export async function up(db: AnyDb): Promise<void> {
  await atomically(db, async (db) => {
    // SQLite adds a NOT NULL column only with a default; every insert fills it (insertLink).
    await db.schema.alterTable('urls').addColumn('title_search', 'text', (c) => c.notNull().defaultTo('')).execute();
    await backfill(db);
    // Replaces (user_id, created_at): the same walk for the plain list, with id for the keyset
    // order and the searchable title, so a search never reads the table rows it does not return.
    await db.schema.dropIndex('urls_user_id_created_at_idx').execute();
    await db.schema
      .createIndex('urls_user_id_created_at_title_idx')
      .on('urls')
      .columns(['user_id', 'created_at', 'id', 'title_search'])
      .execute();
  });
}

export async function down(db: AnyDb): Promise<void> {
  await atomically(db, async (db) => {
    await db.schema.dropIndex('urls_user_id_created_at_title_idx').execute();
    await db.schema.createIndex('urls_user_id_created_at_idx').on('urls').columns(['user_id', 'created_at']).execute();
    await db.schema.alterTable('urls').dropColumn('title_search').execute();
  });
}
