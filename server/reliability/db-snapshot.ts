import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Database } from '../db/database';
import { dialectOf } from '../db/dialect';
import { tablesOfThisDatabase } from '../test/database-tables';

export interface Snapshot {
  /** Rows per table, for a readable failure. */
  counts: Record<string, number>;
  /** A hash of every row of every table, and of the names of the stored files. */
  digest: string;
}

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name)).sort();
}

// A test takes hundreds of snapshots of one database, whose tables do not change meanwhile.
const tablesOf = new WeakMap<Database, Promise<string[]>>();

/** Every row of every table, as one line of JSON each: on PostgreSQL in one round trip, not one a table. */
async function rowsByTable(db: Database, tables: string[]): Promise<Map<string, string[]>> {
  const lines = new Map(tables.map((table) => [table, [] as string[]]));
  if (dialectOf(db) === 'postgres') {
    const { rows } = await sql<{ name: string; line: string }>`${sql.join(
      tables.map((table) => sql`select ${table}::text as name, row_to_json(x)::text as line from ${sql.table(table)} x`),
      sql` union all `,
    )}`.execute(db);
    for (const { name, line } of rows) lines.get(name)!.push(line);
    return lines;
  }
  for (const table of tables) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- every table, whatever its columns
    const rows = await (db as any).selectFrom(table).selectAll().execute();
    lines.set(table, (rows as unknown[]).map((row) => JSON.stringify(row)));
  }
  return lines;
}

/** Everything a request could have changed: every table of this database and the storage folder. */
export async function snapshot(db: Database, storageDir: string): Promise<Snapshot> {
  let tables = tablesOf.get(db);
  if (!tables) {
    tables = tablesOfThisDatabase(db).then((found) => found.map((table) => table.name).sort());
    tablesOf.set(db, tables);
  }
  const hash = createHash('sha256');
  const counts: Record<string, number> = {};
  for (const [table, lines] of await rowsByTable(db, await tables)) {
    lines.sort();
    counts[table] = lines.length;
    hash.update(`${table}\n${lines.join('\n')}\n`);
  }
  hash.update((await filesUnder(storageDir)).join('\n'));
  return { counts, digest: hash.digest('hex') };
}
