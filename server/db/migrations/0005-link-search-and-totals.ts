import { type Kysely, sql, type Transaction } from 'kysely';
import { dialectOf, idType } from '../dialect';
import { searchText } from '../search-text';

// What the links list reads, made to cost the same at 100,000 links of one user as at 100.
//
// The title filter matched lower(title) over every row of the user, and only case-insensitively.
// Titles now get a searchable copy (searchText: no accents, lowercase), computed in JS so both
// databases match alike, and the user's index carries it: a search walks the index newest first
// and stops at a page of matches; a rare term or a miss reads only index entries.
//
// The totals (count and sum of click_count over every row of the user) took longer than any page.
// They are now kept per user by triggers on urls, so every writer (link creation, deletion, the
// click writer's click_count, a user's removal) keeps them right without knowing about them.

const BACKFILL_ROWS = 1000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
type AnyDb = Kysely<any>;

/** Every existing title's searchable copy, a batch at a time (memory stays flat for a million links). */
async function backfillTitles(db: AnyDb): Promise<void> {
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

const SQLITE_TOTALS_TRIGGERS = [
  sql`create trigger urls_totals_insert after insert on urls begin
    insert into user_link_totals (user_id, links, clicks) values (new.user_id, 1, new.click_count)
      on conflict (user_id) do update set links = links + 1, clicks = clicks + excluded.clicks;
  end`,
  sql`create trigger urls_totals_delete after delete on urls begin
    update user_link_totals set links = links - 1, clicks = clicks - old.click_count where user_id = old.user_id;
  end`,
  // The click writer's update: one statement, the difference.
  sql`create trigger urls_totals_clicks after update of click_count on urls when old.user_id = new.user_id begin
    update user_link_totals set clicks = clicks + new.click_count - old.click_count where user_id = new.user_id;
  end`,
  sql`create trigger urls_totals_owner after update of user_id on urls when old.user_id <> new.user_id begin
    update user_link_totals set links = links - 1, clicks = clicks - old.click_count where user_id = old.user_id;
    insert into user_link_totals (user_id, links, clicks) values (new.user_id, 1, new.click_count)
      on conflict (user_id) do update set links = links + 1, clicks = clicks + excluded.clicks;
  end`,
];

const POSTGRES_TOTALS_TRIGGERS = [
  sql`create function urls_totals() returns trigger language plpgsql as $$
  begin
    if tg_op = 'UPDATE' and old.user_id = new.user_id then
      update user_link_totals set clicks = clicks + new.click_count - old.click_count where user_id = new.user_id;
      return null;
    end if;
    if tg_op in ('UPDATE', 'DELETE') then
      update user_link_totals set links = links - 1, clicks = clicks - old.click_count where user_id = old.user_id;
    end if;
    if tg_op in ('UPDATE', 'INSERT') then
      insert into user_link_totals as t (user_id, links, clicks) values (new.user_id, 1, new.click_count)
        on conflict (user_id) do update set links = t.links + 1, clicks = t.clicks + excluded.clicks;
    end if;
    return null;
  end $$`,
  sql`create trigger urls_totals after insert or delete or update of user_id, click_count on urls
    for each row execute function urls_totals()`,
];

/** All or nothing on SQLite too (PostgreSQL's migrator already runs in a transaction). */
function atomically(db: AnyDb, work: (db: AnyDb) => Promise<void>): Promise<void> {
  return db.isTransaction ? work(db) : db.transaction().execute((trx: Transaction<unknown>) => work(trx as AnyDb));
}

export async function up(db: AnyDb): Promise<void> {
  const dialect = dialectOf(db);
  await atomically(db, async (db) => {
    // SQLite adds a NOT NULL column only with a default; every insert fills it (withTitleSearch).
    await db.schema.alterTable('urls').addColumn('title_search', 'text', (c) => c.notNull().defaultTo('')).execute();
    await backfillTitles(db);
    // Replaces (user_id, created_at): the same walk for the plain list, with id for the keyset
    // order and the searchable title, so a search never reads the table rows it does not return.
    await db.schema.dropIndex('urls_user_id_created_at_idx').execute();
    await db.schema
      .createIndex('urls_user_id_created_at_title_idx')
      .on('urls')
      .columns(['user_id', 'created_at', 'id', 'title_search'])
      .execute();

    await db.schema
      .createTable('user_link_totals')
      .addColumn('user_id', idType(dialect), (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('links', 'bigint', (c) => c.notNull())
      .addColumn('clicks', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into user_link_totals (user_id, links, clicks)
      select user_id, count(*), coalesce(sum(click_count), 0) from urls group by user_id`.execute(db);
    for (const statement of dialect === 'sqlite' ? SQLITE_TOTALS_TRIGGERS : POSTGRES_TOTALS_TRIGGERS) await statement.execute(db);
  });
}

export async function down(db: AnyDb): Promise<void> {
  const dialect = dialectOf(db);
  await atomically(db, async (db) => {
    if (dialect === 'sqlite') {
      for (const name of ['urls_totals_insert', 'urls_totals_delete', 'urls_totals_clicks', 'urls_totals_owner']) {
        await sql`drop trigger ${sql.id(name)}`.execute(db);
      }
    } else {
      await sql`drop trigger urls_totals on urls`.execute(db);
      await sql`drop function urls_totals()`.execute(db);
    }
    await db.schema.dropTable('user_link_totals').execute();
    await db.schema.dropIndex('urls_user_id_created_at_title_idx').execute();
    await db.schema.createIndex('urls_user_id_created_at_idx').on('urls').columns(['user_id', 'created_at']).execute();
    await db.schema.alterTable('urls').dropColumn('title_search').execute();
  });
}
