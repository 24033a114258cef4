import { rmSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import { type DatabaseHandle, openDatabase } from '../db/database';
import type { DialectName } from '../db/dialect';
import { migrateToLatest } from '../db/migrate';
import { MIGRATED_SQLITE_ENV, makeMigratedSqlite } from './migrated-sqlite';
import { dropPostgresSchema, postgresSchema } from './postgres-schema';
import { emptyForReuse, noteFreshSchema, takeEmptiedSchema } from './postgres-schema-reuse';

/** SQLite always; PostgreSQL as well whenever TEST_DATABASE_URL is set. */
export const testDialects: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  close(): Promise<void>;
}

function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  return url;
}

/** A fresh, migrated database of the given kind: a temporary folder, or a PostgreSQL schema of its own. */
export async function openTestDatabase(dialect: DialectName, dataDir: string) {
  if (dialect === 'sqlite') {
    return { database: openDatabase({ kind: 'sqlite', dataDir }), drop: async () => {} };
  }
  const url = testDatabaseUrl();
  const { schema, drop } = await postgresSchema(url);
  return { database: openDatabase({ kind: 'postgres', url, schema }), drop };
}

/**
 * A test database of its own in a new folder, migrated by the test itself (a migration's tests
 * stop at the one before theirs); close() removes the database and the folder.
 */
export async function openScratchDatabase(dialect: DialectName) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'corto-scratch-'));
  const { database, drop } = await openTestDatabase(dialect, dataDir);
  return {
    database,
    dataDir,
    async close() {
      await database.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A SQLite database every migration has run on: each SQLite test app starts from a copy instead of
 * migrating again (80-200 ms an app, thousands of apps a run). The migrations are tested from
 * empty databases by their own tests. Vitest makes it once a run; a bench using test apps, once a
 * process.
 */
let migratedSqlite: Promise<string> | undefined;
function migratedSqliteTemplate(): Promise<string> {
  const made = process.env[MIGRATED_SQLITE_ENV];
  if (made) return Promise.resolve(made);
  return (migratedSqlite ??= makeMigratedSqlite().then((dir) => {
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }));
}

async function copyMigratedSqlite(dataDir: string): Promise<void> {
  const template = await migratedSqliteTemplate();
  // corto.db, and its -wal or -shm should closing have left any.
  for (const name of await readdir(template)) {
    if (name.startsWith('corto.db')) await copyFile(path.join(template, name), path.join(dataDir, name));
  }
}

/**
 * A migrated PostgreSQL schema for a test app: one an earlier app of the test file left, emptied,
 * or else a new one. release() closes the database and empties the schema for the next app, or drops it.
 */
async function openMigratedPostgres(): Promise<{ database: DatabaseHandle; release(): Promise<void> }> {
  const url = testDatabaseUrl();
  let schema = takeEmptiedSchema();
  const reused = schema !== undefined;
  schema ??= (await postgresSchema(url)).schema;
  const database = openDatabase({ kind: 'postgres', url, schema });
  if (!reused) {
    await migrateToLatest(database.db);
    await noteFreshSchema(database.db);
  }
  return {
    database,
    async release() {
      const kept = await emptyForReuse(database.db, schema);
      await database.close();
      if (!kept) await dropPostgresSchema(url, schema);
    },
  };
}

async function openMigratedSqlite(dataDir: string): Promise<{ database: DatabaseHandle; release(): Promise<void> }> {
  await copyMigratedSqlite(dataDir);
  const database = openDatabase({ kind: 'sqlite', dataDir });
  return { database, release: () => database.close() };
}

export async function createTestApp(dialect: DialectName, env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'corto-test-'));
  const { database, release } = dialect === 'sqlite' ? await openMigratedSqlite(dataDir) : await openMigratedPostgres();
  const config: Config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env }), webDir: undefined };
  const app = await buildApp({ config, database });
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await release();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Two instances that share one Redis (each on its own database: the same codes in both stand for
 * one shared link), the second already listening for the first's news when this returns.
 */
export async function createTwoInstancesOnRedis(dialect: DialectName, redisUrl: string): Promise<[TestApp, TestApp]> {
  const one = await createTestApp(dialect, { REDIS_URL: redisUrl });
  const two = await createTestApp(dialect, { REDIS_URL: redisUrl });
  await two.app.appContext.linkCache.listening;
  return [one, two];
}
