import { rm } from 'node:fs/promises';
import { THREAD_BUNDLES_ENV } from '../db/database-thread';
import { MIGRATED_SQLITE_ENV, makeMigratedSqlite } from './migrated-sqlite';
import { makeServerBuild } from './server-build';

// Vitest's global set-up, once a run: one migrated SQLite database every SQLite test app is copied
// from (test-app.ts), and the server built as production builds it: every test process starts its
// threads from its entries, and the tests that start a server or the CLI in a process of their own
// run its main.js and corto.js (server-build.ts). A run in watch mode keeps the build it started
// with: a change to the server's code needs a new run.
export default async function setup() {
  const [migrated, serverBuild] = await Promise.all([makeMigratedSqlite(), makeServerBuild()]);
  process.env[MIGRATED_SQLITE_ENV] = migrated;
  process.env[THREAD_BUNDLES_ENV] = serverBuild;
  return async () => {
    delete process.env[MIGRATED_SQLITE_ENV];
    delete process.env[THREAD_BUNDLES_ENV];
    await Promise.all([rm(migrated, { recursive: true, force: true }), rm(serverBuild, { recursive: true, force: true })]);
  };
}
