import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';

/**
 * Where the test apps' SQLite databases are copied from, once every migration has run on it:
 * Vitest's global set-up makes it once per run and names it here for every test process.
 */
export const MIGRATED_SQLITE_ENV = 'CORTO_TEST_MIGRATED_SQLITE';

/** A new folder holding a SQLite database every migration has run on, closed. */
export async function makeMigratedSqlite(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'corto-migrated-'));
  const database = openDatabase({ kind: 'sqlite', dataDir: dir });
  await migrateToLatest(database.db);
  await database.close();
  return dir;
}
