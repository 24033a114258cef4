// The embedded database's click writer, on a thread of its own: a batch takes a few
// microseconds per click to insert, and better-sqlite3 is synchronous, so on the main thread
// every flush would stall redirects for milliseconds. Its own connection to the same file (WAL).
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { DB } from '../db/schema';
import { pruneOldVisitors, writeClickBatch } from './click-batch';
import type { WorkerReply, WorkerRequest } from './sqlite-writer-protocol';

const { file } = workerData as { file: string };
const sqlite = new SQLite(file);
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = NORMAL');
sqlite.pragma('foreign_keys = ON');
sqlite.pragma('busy_timeout = 5000');
const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });

const port = parentPort!;
port.on('message', (request: WorkerRequest) => {
  const run = async (): Promise<number> => {
    if (request.kind === 'write') return writeClickBatch(db, request.clicks);
    if (request.kind === 'prune') {
      await pruneOldVisitors(db, request.today);
      return 0;
    }
    await db.destroy();
    return 0;
  };
  run().then(
    (written) => port.postMessage({ id: request.id, ok: true, written } satisfies WorkerReply),
    (error: unknown) => {
      const { message, code } = error as { message?: string; code?: unknown };
      port.postMessage({
        id: request.id,
        ok: false,
        message: String(message ?? error),
        code: typeof code === 'string' ? code : undefined,
      } satisfies WorkerReply);
    },
  );
});
