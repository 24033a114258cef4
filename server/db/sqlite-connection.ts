import type SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, SqliteDialect, type SqliteDialectConfig, SqliteDriver } from 'kysely';

/**
 * Each connection's page cache, in KiB: SQLite's own default. better-sqlite3 builds SQLite with
 * 16 MB, and under load the event loop's, the click writer's and the statistics reader's
 * connections each filled theirs; with 2 MB the memory bench's RSS after load was 13-22 MB lower.
 * What a redirect, a page or a batch of clicks touches again is far smaller, and the rest is a
 * read from the system's file cache.
 */
export const PAGE_CACHE_KIB = 2000;

/**
 * Except for the readers that search (the links list, the operator's lists): a title search scans
 * the whole searchable copy of the titles, which stays in a cache this size (better-sqlite3's),
 * and with SQLite's default it was a tenth slower. The statistics read with it too: readers with
 * the same settings share their thread (database-reader.ts), so the links list, the statistics,
 * the operator's lists and the MCP tools fill one 16 MB cache (two while a second thread runs)
 * instead of one each.
 */
export const SEARCH_PAGE_CACHE_KIB = 16_000;

/** A connection that writes (the event loop's, the click writer's): WAL, as every one to the file. */
export function configureWritingConnection(sqlite: SQLite.Database): void {
  sqlite.pragma('journal_mode = WAL');
  // NORMAL under WAL: a power cut can lose the last commits, never corrupt the file.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  configureReadingConnection(sqlite);
}

/** A read-only connection (the readers' threads). */
export function configureReadingConnection(sqlite: SQLite.Database, pageCacheKib = PAGE_CACHE_KIB): void {
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma(`cache_size = -${Math.trunc(pageCacheKib)}`);
}

/**
 * Kysely's SQLite dialect, its transactions begun IMMEDIATE: each takes the write lock first,
 * waiting for it (busy_timeout) while another connection (the click writer's thread, an
 * operator's command) holds it. A plain BEGIN reads first on a snapshot, and SQLite refuses at
 * once, without waiting, the first write of a transaction that read while another connection
 * held the lock (SQLITE_BUSY: a 503 for a link edit after a burst of clicks) or wrote since
 * (SQLITE_BUSY_SNAPSHOT). The connections that write use it; a transaction there that only reads
 * waits for the writer too, which is a few milliseconds.
 */
export class WritingSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
