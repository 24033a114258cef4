import { rm } from 'node:fs/promises';
import { THREAD_BUNDLES_ENV } from '../db/database-thread';
import { MIGRATED_SQLITE_ENV, makeMigratedSqlite } from './migrated-sqlite';
import { makeThreadBundles } from './thread-bundles';

// Vitest's global set-up, once a run: one migrated SQLite database every SQLite test app is copied
// from (test-app.ts), and the threads' bundled entries every test process starts its threads from.
// A run in watch mode keeps the bundles it started with: a change to a thread's code needs a new run.
export default async function setup() {
  const [migrated, threads] = await Promise.all([makeMigratedSqlite(), makeThreadBundles()]);
  process.env[MIGRATED_SQLITE_ENV] = migrated;
  process.env[THREAD_BUNDLES_ENV] = threads;
  return async () => {
    delete process.env[MIGRATED_SQLITE_ENV];
    delete process.env[THREAD_BUNDLES_ENV];
    await Promise.all([rm(migrated, { recursive: true, force: true }), rm(threads, { recursive: true, force: true })]);
  };
}
