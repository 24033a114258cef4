import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * A connection's prepared statements kept by their SQL text, the least recently used let go
 * beyond `maxStatements`. Kysely prepares every query anew, and preparing costs more than running
 * most of ours: a session's lookup, a page's tags, the click writer's 100-row insert. Safe on one
 * connection: its queries run one at a time (Kysely's lock, or a thread's synchronous loop).
 */
export function statementCache(sqlite: SQLite.Database, maxStatements: number): (sql: string) => SQLite.Statement {
  const statements = new Map<string, SQLite.Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (statement) {
      // Most recently used last: the Map's order is the eviction order.
      statements.delete(sql);
    } else {
      statement = sqlite.prepare(sql);
      if (statements.size >= maxStatements) statements.delete(statements.keys().next().value!);
    }
    statements.set(sql, statement);
    return statement;
  };
}

/** better-sqlite3 for Kysely, its statements kept by statementCache. */
export function withStatementCache(sqlite: SQLite.Database, maxStatements = 32): SqliteDatabase {
  const prepare = statementCache(sqlite, maxStatements);
  return { close: () => sqlite.close(), prepare };
}
