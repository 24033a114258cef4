import { type Kysely, sql, type Transaction } from 'kysely';
import { dialectOf } from '../dialect';

// Substring search that reads an index instead of every row: the dashboard's title filter, the
// operator's search of links (title, destination) and of accounts (e-mail, name).
//
// A search for '%term%' cannot use a B-tree: until now a rare term or a miss compared the title of
// every one of a user's 100,000 links (30 ms and more on a reader thread, which ten searches at once
// kept busy), and the operator's search compared every link of every user (70 ms on PostgreSQL).
// A trigram index lists, for every three consecutive characters, the rows holding them: a term of
// three characters or more finds its rows by intersecting those lists, however many rows there are.
//
// SQLite: FTS5 tables with the trigram tokenizer (SQLite 3.34, the one better-sqlite3 bundles is
// newer), over the columns searched (urls: title_search, original_url; users: email, name). External
// content: the text stays in urls and users, the FTS table holds only its index, kept in step by
// triggers, so every writer (creation, edit, import, deletion, a user's removal) keeps it right
// without knowing about it; 'rebuild' fills it from the rows already there. The tokenizer folds
// case (what SQLite's LIKE did for ASCII, now beyond it too); titles are searched through their
// accent-free copy (migration 0005), so 'cancion' still finds 'Canción'.
//
// PostgreSQL: pg_trgm's GIN indexes on the same columns, which LIKE and ILIKE use as they are.
// pg_trgm ships with PostgreSQL (contrib) and is a trusted extension since PostgreSQL 13: the
// database's owner may create it. Where it cannot be created (not installed, no right to), the
// migration goes on without these indexes: every search gives the same answers, by reading rows as
// before. Creating the extension later and running `create index` as below brings the speed back.
// It goes into the first schema of the search path, as `create extension` does; down() leaves it
// (other software may use it).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
type AnyDb = Kysely<any>;

/** SQLite: each FTS table, the table it indexes and the columns, in the FTS table's order. */
const SQLITE_INDEXES = [
  { fts: 'urls_search', table: 'urls', columns: ['title_search', 'original_url'] },
  { fts: 'users_search', table: 'users', columns: ['email', 'name'] },
] as const;

/** PostgreSQL: a GIN trigram index each. */
const POSTGRES_INDEXES = [
  { name: 'urls_title_search_trgm_idx', table: 'urls', column: 'title_search' },
  { name: 'urls_original_url_trgm_idx', table: 'urls', column: 'original_url' },
  { name: 'users_email_trgm_idx', table: 'users', column: 'email' },
  { name: 'users_name_trgm_idx', table: 'users', column: 'name' },
] as const;

async function upSqlite(db: AnyDb): Promise<void> {
  for (const { fts, table, columns } of SQLITE_INDEXES) {
    const list = sql.join(columns.map((column) => sql.id(column)));
    const newValues = sql.join(columns.map((column) => sql`new.${sql.id(column)}`));
    const oldValues = sql.join(columns.map((column) => sql`old.${sql.id(column)}`));
    await sql`create virtual table ${sql.id(fts)} using fts5(${list}, content=${sql.lit(table)}, content_rowid='id', columnsize=0, tokenize='trigram')`.execute(db);
    // An external-content index is told what leaves it with the values it indexed ('delete').
    await sql`create trigger ${sql.id(`${fts}_insert`)} after insert on ${sql.id(table)} begin
      insert into ${sql.id(fts)} (rowid, ${list}) values (new.id, ${newValues});
    end`.execute(db);
    await sql`create trigger ${sql.id(`${fts}_delete`)} after delete on ${sql.id(table)} begin
      insert into ${sql.id(fts)} (${sql.id(fts)}, rowid, ${list}) values ('delete', old.id, ${oldValues});
    end`.execute(db);
    // Only when a searched column is written: the click writer's updates of click_count never come here.
    await sql`create trigger ${sql.id(`${fts}_update`)} after update of ${list} on ${sql.id(table)} begin
      insert into ${sql.id(fts)} (${sql.id(fts)}, rowid, ${list}) values ('delete', old.id, ${oldValues});
      insert into ${sql.id(fts)} (rowid, ${list}) values (new.id, ${newValues});
    end`.execute(db);
    // The rows already there (any number: FTS5 builds its index in segments of bounded memory).
    await sql`insert into ${sql.id(fts)} (${sql.id(fts)}) values ('rebuild')`.execute(db);
  }
}

async function downSqlite(db: AnyDb): Promise<void> {
  for (const { fts } of SQLITE_INDEXES) {
    for (const suffix of ['insert', 'delete', 'update']) await sql`drop trigger ${sql.id(`${fts}_${suffix}`)}`.execute(db);
    await sql`drop table ${sql.id(fts)}`.execute(db);
  }
}

/**
 * The schema pg_trgm lives in, creating the extension first if it is missing and may be created;
 * undefined if it cannot be. A failed `create extension` is undone alone (a savepoint inside the
 * migrations' transaction), so the migration goes on.
 */
async function pgTrgmSchema(db: AnyDb): Promise<string | undefined> {
  const installed = async () =>
    (
      await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
        join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema;
  const found = await installed();
  if (found !== undefined) return found;
  if (!db.isTransaction) {
    await sql`create extension if not exists pg_trgm`.execute(db).catch(() => {});
    return installed();
  }
  await sql`savepoint corto_pg_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`release savepoint corto_pg_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint corto_pg_trgm`.execute(db);
    return undefined;
  }
  return installed();
}

async function upPostgres(db: AnyDb): Promise<void> {
  const schema = await pgTrgmSchema(db);
  if (schema === undefined) return; // searches read rows, as before this migration
  // The operator class named with its schema: the search path of tests and of some installs
  // holds only Corto's own schema.
  const ops = sql`${sql.id(schema)}.gin_trgm_ops`;
  for (const { name, table, column } of POSTGRES_INDEXES) {
    await sql`create index ${sql.id(name)} on ${sql.id(table)} using gin (${sql.id(column)} ${ops})`.execute(db);
  }
}

async function downPostgres(db: AnyDb): Promise<void> {
  for (const { name } of POSTGRES_INDEXES) await sql`drop index if exists ${sql.id(name)}`.execute(db);
}

/** All or nothing on SQLite too (PostgreSQL's migrator already runs in a transaction). */
function atomically(db: AnyDb, work: (db: AnyDb) => Promise<void>): Promise<void> {
  return db.isTransaction ? work(db) : db.transaction().execute((trx: Transaction<unknown>) => work(trx as AnyDb));
}

export async function up(db: AnyDb): Promise<void> {
  await (dialectOf(db) === 'sqlite' ? atomically(db, upSqlite) : upPostgres(db));
}

export async function down(db: AnyDb): Promise<void> {
  await (dialectOf(db) === 'sqlite' ? atomically(db, downSqlite) : downPostgres(db));
}
