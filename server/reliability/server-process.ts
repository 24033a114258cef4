import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Started, startNode } from '../../bench/lib/processes';
import { type DatabaseHandle, type DatabaseTarget, openDatabase } from '../db/database';
import type { DialectName } from '../db/dialect';
import { postgresSchema, schemaUrl } from '../test/postgres-schema';
import { entryFile } from '../test/server-build';

// A real Corto process (the server's build, through the bench's startNode) on a database of its own.

export interface ProcessDatabase {
  dialect: DialectName;
  dataDir: string;
  /** For opening the database beside the test (SQLite: beside a running server only with withDatabase's whileServing). */
  target: DatabaseTarget;
  /** The schema's connection string, pointing at the given host:port (a proxy) instead of the real server. */
  postgresUrl(via?: { host: string; port: number }): string;
  drop(): Promise<void>;
}

export async function processDatabase(dialect: DialectName): Promise<ProcessDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'corto-process-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (dialect === 'sqlite') {
    return { dialect, dataDir, target: { kind: 'sqlite', dataDir }, postgresUrl: () => '', drop: async () => removeDir() };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const { schema, drop } = await postgresSchema(url);
  return {
    dialect,
    dataDir,
    target: { kind: 'postgres', url, schema },
    postgresUrl: (via) => schemaUrl(url, schema, via),
    async drop() {
      await drop();
      removeDir();
    },
  };
}

/** Starts the server (its build, test/server-build.ts) on the database (it migrates it) and waits for /api/health. */
export function startServer(database: ProcessDatabase, env: Record<string, string> = {}): Promise<Started> {
  return startNode(
    entryFile('main'),
    {
      LOG_LEVEL: 'warn',
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.dialect === 'postgres' ? database.postgresUrl() : '',
      ...env,
    },
    '/api/health',
  );
}

/** The target opened beside a running server: SQLite without its data folder's lock, which the server holds. */
export function besideRunningServer(target: DatabaseTarget): DatabaseTarget {
  return target.kind === 'sqlite' ? { ...target, beside: true } : target;
}

/** Runs `use` on the database beside the test, and closes it; `whileServing`: beside a running server (SQLite: without its folder's lock). */
export async function withDatabase<T>(database: ProcessDatabase, use: (handle: DatabaseHandle) => Promise<T>, { whileServing = false } = {}): Promise<T> {
  const handle = openDatabase(whileServing ? besideRunningServer(database.target) : database.target);
  try {
    return await use(handle);
  } finally {
    await handle.close();
  }
}

/** Waits until `done` holds, asking every `everyMs`; fails naming `what` after `limitMs`. */
export async function until(
  done: () => boolean | Promise<boolean>,
  what: string,
  { limitMs = 30_000, everyMs = 100 }: { limitMs?: number; everyMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
