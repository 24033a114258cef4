import { type Kysely, sql, type Transaction } from 'kysely';
import { dialectOf } from '../dialect';
import { searchText } from '../search-text';

// The operator's search of accounts, accent-insensitive as the links' search is: 'gomez' finds
// 'Gómez'. Names get a searchable copy (searchText: lowercase, no accents), written by the code
// that writes a name (insertUser, updateUser), as titles have theirs (migration 0005), and the
// trigram index covers it: SQLite's users_search gains the column (rebuilt: FTS5 tables cannot be
// altered), PostgreSQL a pg_trgm index on it where pg_trgm is installed (migration 0015).
//
// The name itself stays indexed and searched too, so an account written by the release before
// (its copy empty until its name changes) is still found by its exact name.

const BACKFILL_ROWS = 1000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
type AnyDb = Kysely<any>;

async function backfillNames(db: AnyDb): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await db.selectFrom('users').select(['id', 'name']).where('id', '>', after).orderBy('id').limit(BACKFILL_ROWS).execute();
    if (rows.length === 0) return;
    const values = sql.join(rows.map((row) => sql`(cast(${row.id} as bigint), ${searchText(row.name)})`));
    await sql`with v(id, name_search) as (values ${values})
      update users set name_search = v.name_search from v where users.id = v.id`.execute(db);
    after = Number(rows.at(-1)!.id);
  }
}

const SQLITE_COLUMNS = ['email', 'name', 'name_search'];

async function usersSearchTable(db: AnyDb, columns: string[]): Promise<void> {
  for (const suffix of ['insert', 'delete', 'update']) await sql`drop trigger if exists ${sql.id(`users_search_${suffix}`)}`.execute(db);
  await sql`drop table if exists users_search`.execute(db);
  const list = sql.join(columns.map((column) => sql.id(column)));
  const newValues = sql.join(columns.map((column) => sql`new.${sql.id(column)}`));
  const oldValues = sql.join(columns.map((column) => sql`old.${sql.id(column)}`));
  await sql`create virtual table users_search using fts5(${list}, content='users', content_rowid='id', columnsize=0, tokenize='trigram')`.execute(db);
  await sql`create trigger users_search_insert after insert on users begin
    insert into users_search (rowid, ${list}) values (new.id, ${newValues});
  end`.execute(db);
  await sql`create trigger users_search_delete after delete on users begin
    insert into users_search (users_search, rowid, ${list}) values ('delete', old.id, ${oldValues});
  end`.execute(db);
  await sql`create trigger users_search_update after update of ${list} on users begin
    insert into users_search (users_search, rowid, ${list}) values ('delete', old.id, ${oldValues});
    insert into users_search (rowid, ${list}) values (new.id, ${newValues});
  end`.execute(db);
  await sql`insert into users_search (users_search) values ('rebuild')`.execute(db);
}

async function pgTrgmSchema(db: AnyDb): Promise<string | undefined> {
  const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
    join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  return rows[0]?.schema;
}

function atomically(db: AnyDb, work: (db: AnyDb) => Promise<void>): Promise<void> {
  return db.isTransaction ? work(db) : db.transaction().execute((trx: Transaction<unknown>) => work(trx as AnyDb));
}

export async function up(db: AnyDb): Promise<void> {
  await atomically(db, async (trx) => {
    await trx.schema.alterTable('users').addColumn('name_search', 'text', (c) => c.notNull().defaultTo('')).execute();
    await backfillNames(trx);
    if (dialectOf(trx) === 'sqlite') {
      await usersSearchTable(trx, SQLITE_COLUMNS);
    } else {
      const schema = await pgTrgmSchema(trx);
      if (schema !== undefined) {
        await sql`create index users_name_search_trgm_idx on users using gin (name_search ${sql.id(schema)}.gin_trgm_ops)`.execute(trx);
      }
    }
  });
}

export async function down(db: AnyDb): Promise<void> {
  await atomically(db, async (trx) => {
    if (dialectOf(trx) === 'sqlite') await usersSearchTable(trx, ['email', 'name']);
    else await sql`drop index if exists users_name_search_trgm_idx`.execute(trx);
    await trx.schema.alterTable('users').dropColumn('name_search').execute();
  });
}

// A column with a default and an index: the release before it runs on this schema unchanged (its
// accounts get an empty copy, and are found by their exact name as before).
export const compatibleWithPrevious = true;
