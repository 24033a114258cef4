import { rm } from 'node:fs/promises';
import { MIGRATED_SQLITE_ENV, makeMigratedSqlite } from './migrated-sqlite';

// Vitest's global set-up: one migrated SQLite database for the whole run (test-app.ts).
export default async function setup() {
  const dir = await makeMigratedSqlite();
  process.env[MIGRATED_SQLITE_ENV] = dir;
  return async () => {
    delete process.env[MIGRATED_SQLITE_ENV];
    await rm(dir, { recursive: true, force: true });
  };
}
