import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * better-sqlite3 for Kysely with each prepared statement kept by its SQL text. Kysely prepares
 * every query anew, and preparing the click writer's 100-row insert costs more than running it.
 * Safe on one connection: Kysely runs one query at a time on it.
 */
export function withStatementCache(sqlite: SQLite.Database, maxStatements = 32): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        // Beyond the few fixed statements, texts vary (the last, shorter insert of a batch): start over.
        if (statements.size >= maxStatements) statements.clear();
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
