import { type ColumnDefinitionBuilder, type Kysely, SqliteAdapter, sql } from 'kysely';

// Every difference between SQLite and PostgreSQL that the rest of the server must not know about.

export type DialectName = 'sqlite' | 'postgres';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema will do
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';
}

/** A surrogate integer key: AUTOINCREMENT in SQLite, an identity column in PostgreSQL. */
export function idColumn(dialect: DialectName) {
  return (column: ColumnDefinitionBuilder) =>
    dialect === 'sqlite'
      ? column.primaryKey().autoIncrement()
      : column.primaryKey().generatedByDefaultAsIdentity();
}

/** The column type for idColumn: SQLite only autoincrements a column typed exactly "integer". */
export function idType(dialect: DialectName) {
  return dialect === 'sqlite' ? 'integer' : 'bigint';
}

/**
 * SQL for the authority of a stored destination (`host[:port]`, after 'scheme://' up to the first
 * '/'): stored destinations are in the URL standard's form, so the host is lower case and punycode.
 */
export function urlAuthoritySql(dialect: DialectName, column: string) {
  return dialect === 'sqlite'
    ? sql<string>`substr(substr(${sql.ref(column)}, instr(${sql.ref(column)}, '://') + 3), 1, instr(substr(${sql.ref(column)}, instr(${sql.ref(column)}, '://') + 3) || '/', '/') - 1)`
    : sql<string>`split_part(split_part(${sql.ref(column)}, '://', 2), '/', 1)`;
}

interface DriverError {
  code?: unknown;
}

/** A UNIQUE constraint was violated (better-sqlite3 and pg name it differently). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as DriverError | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** The database could not be reached (as opposed to refusing a query). */
// pg's own errors about the connection carry no code, only these messages (pg and pg-pool).
const PG_CONNECTION_MESSAGES = /^(timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error)/;

export function isConnectionError(error: unknown): boolean {
  const code = (error as DriverError | null)?.code;
  if (code === undefined && error instanceof Error) return PG_CONNECTION_MESSAGES.test(error.message);
  if (typeof code !== 'string') return false;
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'SQLITE_BUSY'].includes(code) ||
    code.startsWith('08') || // PostgreSQL connection exceptions
    code === '57P01' || // admin shutdown
    code === '57P03' // cannot connect now
  );
}
