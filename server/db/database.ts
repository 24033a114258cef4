import { closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { lockDataDir } from './data-dir-lock';
import type { DialectName } from './dialect';
import type { DB } from './schema';
import { configureWritingConnection, WritingSqliteDialect } from './sqlite-connection';
import { withStatementCache } from './statement-cache';

export type Database = Kysely<DB>;

export interface DatabaseHandle {
  db: Database;
  dialect: DialectName;
  /** Where a PostgreSQL handle connects, so the click writer's thread can open a pool of its own. */
  target?: DatabaseTarget;
  /** PostgreSQL's connection pool, for the metrics: none with SQLite, nor before the first query. */
  readonly pool?: Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | {
      kind: 'sqlite';
      dataDir: string;
      /** An operator's command beside a serving instance: no instance lock (SQLite's own locks still apply). */
      beside?: boolean;
    }
  | { kind: 'postgres'; url: string; /** Used by tests to isolate each suite. */ schema?: string };

const INT8_OID = 20;
/** Prepared statements the embedded database's connection keeps (the API's queries are a few hundred texts at most). */
const MAIN_STATEMENTS = 256;

// bigint columns and count(*) come back from pg as strings; every value we keep fits in a double.
const pgTypesOf = (types: typeof pg.types) => ({
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
});

function openSqlite(dataDir: string, beside = false): DatabaseHandle {
  const unlock = beside ? () => {} : lockDataDir(dataDir);
  try {
    // Accounts, sessions and password hashes: the folder and the file are the owner's alone (SQLite
    // gives its -wal and -shm files the database file's mode).
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const file = path.join(dataDir, 'corto.db');
    closeSync(openSync(file, 'a', 0o600));
    const sqlite = new SQLite(file);
    configureWritingConnection(sqlite);
    // Statements kept: preparing a session's lookup or a page's tags cost more than running them.
    const db = new Kysely<DB>({ dialect: new WritingSqliteDialect({ database: withStatementCache(sqlite, MAIN_STATEMENTS) }) });
    return {
      db,
      dialect: 'sqlite',
      async close() {
        await db.destroy();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * The connection string with Corto's options after any the URL gives (pg lets the URL's `options`
 * override the pool's): the schema when given, and no parallel plans. Corto's queries are a web
 * request's, a page of rows; a parallel plan starts worker processes for each (a creator's links
 * with a tag, a million links: 100 ms in parallel, 6 ms without) and takes the cores that the
 * reader's two reads at once (database-reader.ts) leave to redirects.
 */
function withCortoOptions(url: string, schema: string | undefined): string {
  const ours = [schema && `-c search_path=${schema}`, '-c max_parallel_workers_per_gather=0'].filter(Boolean).join(' ');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url; // pg cannot connect to it either, and its own error says why
  }
  parsed.searchParams.set('options', [parsed.searchParams.get('options'), ours].filter(Boolean).join(' '));
  return parsed.toString();
}

function openPostgres(url: string, schema: string | undefined): DatabaseHandle {
  let opened: pg.Pool | undefined;
  // pg is read with the first query (Kysely asks for the pool then): an embedded install never
  // loads it, and a start reads one package less.
  const pool = async () => {
    const { default: pgModule } = await import('pg');
    opened = new pgModule.Pool({
      connectionString: withCortoOptions(url, schema),
      max: 10,
      types: pgTypesOf(pgModule.types),
      connectionTimeoutMillis: 5000,
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    opened.on('error', () => {});
    // Nor may a checked-out client's (pg emits 'error' with no listener if the server goes away
    // between two queries of a transaction); the query in flight still fails and is retried.
    opened.on('connect', (client) => client.on('error', () => {}));
    return opened;
  };
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    target: { kind: 'postgres', url, schema },
    get pool() {
      return opened;
    },
    close: () => db.destroy(),
  };
}

export function openDatabase(target: DatabaseTarget): DatabaseHandle {
  return target.kind === 'sqlite' ? openSqlite(target.dataDir, target.beside) : openPostgres(target.url, target.schema);
}
