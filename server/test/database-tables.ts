import { sql } from 'kysely';
import type { Database } from '../db/database';
import { dialectOf } from '../db/dialect';

export interface TableColumns {
  name: string;
  columns: string[];
}

/**
 * This database's own tables and their columns. Kysely's introspection lists every schema of a
 * PostgreSQL database, including the ones other test suites are creating and dropping meanwhile,
 * which made it fail at random; here PostgreSQL is asked about the current schema only. SQLite's
 * full-text indexes (virtual tables and their shadow tables, migration 0015) are indexes, not tables.
 */
export async function tablesOfThisDatabase(db: Database): Promise<TableColumns[]> {
  const rows =
    dialectOf(db) === 'postgres'
      ? (
          await sql<{ table: string; column: string }>`
            select table_name as "table", column_name as "column" from information_schema.columns
            where table_schema = current_schema() order by table_name, ordinal_position`.execute(db)
        ).rows
      : (
          await sql<{ table: string; column: string }>`
            select m.name as "table", p.name as "column" from pragma_table_list m, pragma_table_info(m.name) p
            where m.schema = 'main' and m.type = 'table' and m.name not like 'sqlite_%' order by m.name, p.cid`.execute(db)
        ).rows;
  const tables = new Map<string, string[]>();
  for (const { table, column } of rows) {
    if (table.startsWith('kysely_')) continue;
    tables.set(table, [...(tables.get(table) ?? []), column]);
  }
  return [...tables].map(([name, columns]) => ({ name, columns }));
}
