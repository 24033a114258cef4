import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../db/database';
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

/** Everything a request could have changed: every table of this database and the storage folder. */
export async function snapshot(db: Database, storageDir: string): Promise<Snapshot> {
  const tables = (await tablesOfThisDatabase(db)).map((table) => table.name).sort();
  const hash = createHash('sha256');
  const counts: Record<string, number> = {};
  for (const table of tables) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- every table, whatever its columns
    const rows = await (db as any).selectFrom(table).selectAll().execute();
    const lines = (rows as unknown[]).map((row) => JSON.stringify(row)).sort();
    counts[table] = lines.length;
    hash.update(`${table}\n${lines.join('\n')}\n`);
  }
  hash.update((await filesUnder(storageDir)).join('\n'));
  return { counts, digest: hash.digest('hex') };
}
