// `corto to-postgres <url>`: an embedded install (DATA_DIR) copied into PostgreSQL, every table
// and every stored file, then checked table by table. Run it with the server stopped (it takes
// the data folder's lock) and as often as needed: each row is written by its primary key (insert,
// or update if there), so a second run finishes an interrupted one and changes nothing after a
// complete one. The rows go in one transaction; the files first (a row never names a missing file).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Command } from 'commander';
import { type Kysely, sql, type Transaction } from 'kysely';
import { loadConfig } from '../config';
import { type Database, openDatabase } from '../db/database';
import { lockDataDir } from '../db/data-dir-lock';
import { migrateToLatest } from '../db/migrate';
import { openStorage } from '../storage/open-storage';
import type { ObjectStorage } from '../storage/storage';
import { DATABASE_FILE, localFiles } from './backup-archive';

export class CopyError extends Error {}

/**
 * Tables whose rows triggers keep from other tables' writes (user_link_totals, from urls):
 * copied after every other table, so the copied values are the ones that stay.
 */
const MAINTAINED_BY_TRIGGERS = ['user_link_totals'];
/** Parameters per statement: PostgreSQL takes at most 65,535. */
const PARAMETERS = 30_000;

export interface TableCount {
  table: string;
  rows: number;
}

export interface CopyResult {
  tables: TableCount[];
  files: number;
}

type Row = Record<string, unknown>;
type Source = SQLite.Database;

/** The source's tables, each after the tables it references (its foreign keys). */
function tablesInOrder(source: Source): string[] {
  // Plain tables only: the full-text indexes (virtual and shadow tables) are PostgreSQL's own indexes there.
  const names = (
    source
      .prepare(`select name from pragma_table_list where schema = 'main' and type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' order by name`)
      .all() as Array<{ name: string }>
  ).map((row) => row.name);
  const ordered: string[] = [];
  const visit = (name: string, path: string[]) => {
    if (ordered.includes(name) || path.includes(name)) return;
    const parents = source.prepare('select "table" as parent from pragma_foreign_key_list(?)').all(name) as Array<{ parent: string }>;
    for (const { parent } of parents) if (parent !== name) visit(parent, [...path, name]);
    ordered.push(name);
  };
  for (const name of names) visit(name, []);
  return [...ordered.filter((name) => !MAINTAINED_BY_TRIGGERS.includes(name)), ...ordered.filter((name) => MAINTAINED_BY_TRIGGERS.includes(name))];
}

interface TargetTable {
  columns: string[];
  key: string[];
  identity: string[];
}

async function describeTarget(db: Kysely<unknown>, table: string): Promise<TargetTable> {
  const columns = (
    await sql<{ name: string; identity: string }>`select column_name as name, is_identity as identity from information_schema.columns
      where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(db)
  ).rows;
  const key = (
    await sql<{ name: string }>`select a.attname as name from pg_index i
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = (quote_ident(current_schema()) || '.' || quote_ident(${table}))::regclass and i.indisprimary`.execute(db)
  ).rows;
  return {
    columns: columns.map((column) => column.name),
    key: key.map((column) => column.name),
    identity: columns.filter((column) => column.identity === 'YES').map((column) => column.name),
  };
}

async function insertRows(trx: Transaction<unknown>, table: string, columns: string[], key: string[], rows: Row[]): Promise<void> {
  const values = sql.join(rows.map((row) => sql`(${sql.join(columns.map((column) => row[column] ?? null))})`));
  const updated = columns.filter((column) => !key.includes(column));
  const conflict =
    updated.length === 0
      ? sql`on conflict do nothing`
      : sql`on conflict (${sql.join(key.map((column) => sql.id(column)))}) do update set ${sql.join(
          updated.map((column) => sql`${sql.id(column)} = excluded.${sql.id(column)}`),
        )}`;
  await sql`insert into ${sql.table(table)} (${sql.join(columns.map((column) => sql.id(column)))}) values ${values} ${conflict}`.execute(trx);
}

async function copyTable(source: Source, trx: Transaction<unknown>, table: string): Promise<number> {
  const target = await describeTarget(trx, table);
  if (target.columns.length === 0) throw new CopyError(`La tabla ${table} no existe en PostgreSQL`);
  if (target.key.length === 0) throw new CopyError(`La tabla ${table} no tiene clave primaria en PostgreSQL: no se puede copiar dos veces sin duplicar`);
  const sourceColumns = (source.prepare('select name from pragma_table_info(?)').all(table) as Array<{ name: string }>).map((row) => row.name);
  const missing = sourceColumns.filter((column) => !target.columns.includes(column));
  if (missing.length > 0) throw new CopyError(`La tabla ${table} de PostgreSQL no tiene las columnas ${missing.join(', ')}`);

  const batchSize = Math.max(1, Math.floor(PARAMETERS / sourceColumns.length));
  let batch: Row[] = [];
  let copied = 0;
  // A statement of its own, iterated: memory holds one batch, whatever the table's size.
  for (const row of source.prepare(`select * from "${table.replaceAll('"', '""')}"`).iterate() as IterableIterator<Row>) {
    batch.push(row);
    if (batch.length === batchSize) {
      await insertRows(trx, table, sourceColumns, target.key, batch);
      copied += batch.length;
      batch = [];
    }
  }
  if (batch.length > 0) await insertRows(trx, table, sourceColumns, target.key, batch);
  copied += batch.length;

  // Identity columns were given explicit values: the next generated one comes after the largest.
  for (const column of target.identity) {
    await sql`select setval(pg_get_serial_sequence(${table}, ${column}),
      coalesce((select max(${sql.id(column)}) from ${sql.table(table)}), 0) + 1, false)`.execute(trx);
  }
  return copied;
}

async function countRows(db: Kysely<unknown>, table: string): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

export interface CopyOptions {
  dataDir: string;
  /** The migrated PostgreSQL database the install goes into. */
  target: Database;
  /** The store the PostgreSQL install will serve its files from. */
  storage: ObjectStorage;
}

/** Copies the install at `dataDir` (its lock taken) into `target` and `storage`, then compares counts. */
export async function copyToPostgres({ dataDir, target, storage }: CopyOptions): Promise<CopyResult> {
  const unlock = lockDataDir(dataDir);
  const source = new SQLite(path.join(dataDir, DATABASE_FILE), { fileMustExist: true });
  try {
    const root = path.join(dataDir, 'storage');
    const files = await localFiles(root);
    for (const [bucket, key] of files) {
      const body = await readFile(path.join(root, bucket, key));
      await storage.put(bucket, key, body, contentTypeOf(key));
    }

    const tables = tablesInOrder(source);
    const db = target as unknown as Kysely<unknown>;
    await db.transaction().execute(async (trx) => {
      for (const table of tables) await copyTable(source, trx, table);
    });

    const counts: TableCount[] = [];
    for (const table of tables) {
      const expected = (source.prepare(`select count(*) as n from "${table.replaceAll('"', '""')}"`).get() as { n: number }).n;
      const rows = await countRows(db, table);
      if (rows !== expected) {
        throw new CopyError(`La tabla ${table} tiene ${rows} filas en PostgreSQL y ${expected} en la instalación embebida`);
      }
      counts.push({ table, rows });
    }
    return { tables: counts, files: files.length };
  } finally {
    source.close();
    unlock();
  }
}

function contentTypeOf(key: string): string {
  const extension = path.extname(key).toLowerCase();
  const types: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.gif': 'image/gif', '.svg': 'image/svg+xml' };
  return types[extension] ?? 'application/octet-stream';
}

export const registerToPostgres = (program: Command) => {
  program
    .command('to-postgres')
    .description('Copia la instalación embebida (DATA_DIR: tablas y archivos) a PostgreSQL y al almacén configurado')
    .argument('<url>', 'la base de datos de destino, postgres://usuario@servidor:puerto/base')
    .action(async (url: string) => {
      const config = loadConfig({ ...process.env, DATABASE_URL: url });
      const target = openDatabase({ kind: 'postgres', url: config.databaseUrl! });
      try {
        await migrateToLatest(target.db);
        const result = await copyToPostgres({ dataDir: config.dataDir, target: target.db, storage: await openStorage(config) });
        for (const { table, rows } of result.tables) console.log(`${table}: ${rows} filas`);
        console.log(`${result.files} archivos en el almacén. Copia comprobada: arranca Corto con DATABASE_URL=${redacted(url)}.`);
      } finally {
        await target.close();
      }
    });
};

/** The address without its password, for the console. */
function redacted(url: string): string {
  const address = new URL(url);
  if (address.password) address.password = '***';
  return address.toString();
}
