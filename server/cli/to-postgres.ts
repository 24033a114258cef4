// `corto to-postgres <url>`: an embedded install (DATA_DIR) copied into PostgreSQL, every table
// and every stored file, then checked table by table. Run it with the server stopped (it takes
// the data folder's lock). The rows go in one transaction, the files first (a row never names a
// missing file). The copy leaves a fingerprint of what it wrote in the target (corto_copy): a
// second run replaces an unused copy with the install's present, and refuses, before writing
// anything, a target that has changed since (a server already uses it: its newer data would go).
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
 * Tables whose rows triggers keep from other tables' writes (user_link_totals and
 * workspace_link_totals, from urls): copied after every other table, so the copied values are the
 * ones that stay.
 */
const MAINTAINED_BY_TRIGGERS = ['user_link_totals', 'workspace_link_totals'];
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
  // Not the migrations' bookkeeping (kysely_*, corto_*): the target has its own.
  const names = (
    source
      .prepare(`select name from pragma_table_list where schema = 'main' and type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' and name not like 'corto_%' order by name`)
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

async function copyTable(source: Source, trx: Transaction<unknown>, table: string, onRows: (rows: number) => void): Promise<number> {
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
      onRows(batch.length);
      batch = [];
    }
  }
  if (batch.length > 0) await insertRows(trx, table, sourceColumns, target.key, batch);
  copied += batch.length;
  onRows(batch.length);

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

/** Where a long copy is: its phase, and how much of it is done. */
export interface CopyProgress {
  phase: 'files' | 'rows' | 'check';
  done: number;
  total: number;
  /** The table being copied (rows). */
  table?: string;
}

export interface CopyOptions {
  dataDir: string;
  /** The migrated PostgreSQL database the install goes into. */
  target: Database;
  /**
   * The store the PostgreSQL install will serve its files from; undefined when it is the same
   * DATA_DIR/storage folder (no S3 store set): the files are already where they will be read.
   */
  storage: ObjectStorage | undefined;
  onProgress?: (progress: CopyProgress) => void;
  /** Run once the folder is locked and the target checked, before anything is copied (the CLI migrates there). */
  beforeCopy?: () => Promise<void>;
}

const MARKER = 'corto_copy';

async function targetTableExists(db: Kysely<unknown>, table: string): Promise<boolean> {
  const { rows } = await sql<{ found: unknown }>`select to_regclass(quote_ident(current_schema()) || '.' || quote_ident(${table})) as found`.execute(db);
  return rows[0]?.found != null;
}

/** Each table's row count and a sum of its rows' hashes: any insert, update or delete changes it. */
async function fingerprintOf(db: Kysely<unknown>, tables: string[]): Promise<Record<string, string>> {
  const prints: Record<string, string> = {};
  for (const table of tables) {
    const { rows } = await sql<{ print: string }>`select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)), 0) as print
      from ${sql.table(table)} as t`.execute(db);
    prints[table] = rows[0]!.print;
  }
  return prints;
}

/**
 * Refuses (CopyError) a target that holds data which is not an unchanged earlier copy: an earlier
 * copy a server has used since (its newer clicks, accounts and edits would be overwritten), or a
 * database that never came from a copy. Reads only: it runs before anything is written.
 */
export async function checkTargetUnused(db: Kysely<unknown>): Promise<void> {
  if (await targetTableExists(db, MARKER)) {
    const marker = (await sql<{ copied_at: string; tables: string; fingerprint: string }>`select copied_at, tables, fingerprint from ${sql.table(MARKER)}`.execute(db)).rows[0];
    if (marker) {
      const tables = JSON.parse(marker.tables) as string[];
      const then = JSON.parse(marker.fingerprint) as Record<string, string>;
      const now = await fingerprintOf(db, tables.filter((table) => then[table] !== undefined));
      const changed = tables.filter((table) => now[table] !== then[table]);
      if (changed.length > 0) {
        throw new CopyError(
          `La base de datos PostgreSQL ha cambiado desde la copia del ${marker.copied_at} (${changed.join(', ')}): ` +
            'un servidor ya la usa. No se copia encima, porque sus datos nuevos se perderían; no se ha escrito nada',
        );
      }
      return;
    }
  }
  for (const table of ['users', 'urls']) {
    if (!(await targetTableExists(db, table))) continue;
    if ((await countRows(db, table)) > 0) {
      throw new CopyError(
        `La base de datos PostgreSQL ya tiene datos (tabla ${table}) que no vienen de una copia de to-postgres: ` +
          'no se copia encima. Usa una base de datos vacía; no se ha escrito nada',
      );
    }
  }
}

/** Copies the install at `dataDir` (its lock taken) into `target` and `storage`, then compares counts. */
export async function copyToPostgres({ dataDir, target, storage, onProgress = () => {}, beforeCopy }: CopyOptions): Promise<CopyResult> {
  const unlock = lockDataDir(dataDir);
  const source = new SQLite(path.join(dataDir, DATABASE_FILE), { fileMustExist: true });
  try {
    const db = target as unknown as Kysely<unknown>;
    await checkTargetUnused(db);
    await beforeCopy?.();

    const root = path.join(dataDir, 'storage');
    const files = await localFiles(root);
    if (storage) {
      for (const [index, [bucket, key]] of files.entries()) {
        const body = await readFile(path.join(root, bucket, key));
        await storage.put(bucket, key, body, contentTypeOf(key));
        onProgress({ phase: 'files', done: index + 1, total: files.length });
      }
    }

    const tables = tablesInOrder(source);
    const sourceCount = (table: string) => (source.prepare(`select count(*) as n from "${table.replaceAll('"', '""')}"`).get() as { n: number }).n;
    const total = tables.reduce((sum, table) => sum + sourceCount(table), 0);
    let done = 0;
    await db.transaction().execute(async (trx) => {
      // An unused earlier copy (checked above) is replaced whole: rows deleted since go too.
      await sql`truncate table ${sql.join(tables.map((table) => sql.table(table)))} cascade`.execute(trx);
      for (const table of tables) {
        await copyTable(source, trx, table, (rows) => {
          done += rows;
          onProgress({ phase: 'rows', table, done, total });
        });
      }
      await sql`create table if not exists ${sql.table(MARKER)} (copied_at text not null, tables text not null, fingerprint text not null)`.execute(trx);
      await sql`delete from ${sql.table(MARKER)}`.execute(trx);
      await sql`insert into ${sql.table(MARKER)} (copied_at, tables, fingerprint)
        values (${new Date().toISOString()}, ${JSON.stringify(tables)}, ${JSON.stringify(await fingerprintOf(trx, tables))})`.execute(trx);
    });

    const counts: TableCount[] = [];
    for (const [index, table] of tables.entries()) {
      const expected = sourceCount(table);
      const rows = await countRows(db, table);
      if (rows !== expected) {
        throw new CopyError(`La tabla ${table} tiene ${rows} filas en PostgreSQL y ${expected} en la instalación embebida`);
      }
      counts.push({ table, rows });
      onProgress({ phase: 'check', done: index + 1, total: tables.length });
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
        // Without S3 the PostgreSQL install serves the same DATA_DIR/storage: nothing to copy.
        const storage = config.s3 ? await openStorage(config) : undefined;
        const result = await copyToPostgres({
          dataDir: config.dataDir,
          target: target.db,
          storage,
          onProgress: progressPrinter(),
          // After the check, as the migrations write: a used target is refused untouched.
          beforeCopy: async () => void (await migrateToLatest(target.db)),
        });
        for (const { table, rows } of result.tables) console.log(`${table}: ${rows} filas`);
        const files = storage ? `${result.files} archivos copiados al almacén S3` : `${result.files} archivos, que siguen en ${path.join(config.dataDir, 'storage')}`;
        console.log(`${files}. Copia comprobada: arranca Corto con DATABASE_URL=${redacted(url)} (y el mismo DATA_DIR${storage ? ' o S3_*' : ''}).`);
      } finally {
        await target.close();
      }
    });
};

/** Progress on stderr: each phase's start, then at most a line a second, with an estimate. */
function progressPrinter(): (progress: CopyProgress) => void {
  const names = { files: 'Archivos', rows: 'Filas', check: 'Comprobación' } as const;
  let phase: CopyProgress['phase'] | undefined;
  let phaseStart = 0;
  let printed = 0;
  return (progress) => {
    if (progress.total === 0) return;
    const now = Date.now();
    if (progress.phase !== phase) {
      phase = progress.phase;
      phaseStart = now;
    } else if (now - printed < 1000 && progress.done < progress.total) {
      return;
    }
    printed = now;
    const elapsed = (now - phaseStart) / 1000;
    const left = progress.done > 0 ? Math.round((elapsed * (progress.total - progress.done)) / progress.done) : undefined;
    const table = progress.table ? ` (${progress.table})` : '';
    const estimate = left !== undefined && progress.done < progress.total ? `, quedan unos ${left} s` : '';
    console.error(`${names[progress.phase]}: ${progress.done} de ${progress.total}${table}${estimate}`);
  };
}

/** The address without its password, for the console. */
function redacted(url: string): string {
  const address = new URL(url);
  if (address.password) address.password = '***';
  return address.toString();
}
