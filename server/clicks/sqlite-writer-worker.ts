// The click writer's thread: it enriches each batch of raw visits (User-Agent parsing, the IP
// database, the bot test, the visitor hash) and writes it in one transaction, so the event loop
// pays nothing per click beyond queueing it and posting the batch. With SQLite it has its own
// connection to the same file (WAL): better-sqlite3 is synchronous, and on the main thread every
// flush would stall redirects for milliseconds. With PostgreSQL, a small pool of its own.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { type Database, openDatabase } from '../db/database';
import type { DB } from '../db/schema';
import { configureWritingConnection, WritingSqliteDialect } from '../db/sqlite-connection';
import { withStatementCache } from '../db/statement-cache';
import { workerErrorFields } from '../db/database-thread';
import { pruneClickWriterState, writeClickBatch } from './click-batch';
import { createEnricher } from './enrich';
import { openGeo } from './geo';
import type { WorkerReply, WorkerRequest, WriterTarget } from './sqlite-writer-protocol';
import { unpackVisits } from './visit-batch';

const port = parentPort!;
const { target } = workerData as { target: WriterTarget };

function openTarget(): { db: Database; close(): Promise<void> } {
  if (target.kind === 'postgres') return openDatabase({ kind: 'postgres', url: target.url, schema: target.schema });
  const sqlite = new SQLite(target.file);
  configureWritingConnection(sqlite);
  const db = new Kysely<DB>({ dialect: new WritingSqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, close: () => db.destroy() };
}

const { db, close } = openTarget();
const geo = openGeo({
  error: (fields: { err?: unknown }, message: string) =>
    port.postMessage({ id: 0, log: 'error', message, err: String(fields.err) } satisfies WorkerReply),
});
const enrich = createEnricher(geo);

port.on('message', (request: WorkerRequest) => {
  const run = async (): Promise<number> => {
    if (request.kind === 'write') {
      // Read at once: the memory is shared, and the writer fills it again once this batch is answered.
      const visits = unpackVisits(request.visits);
      await geo.ready; // a click is never located as Unknown just because the file was still loading
      return writeClickBatch(db, visits.map(enrich), request.batch, request.announce);
    }
    if (request.kind === 'ready') {
      await geo.ready;
      // A connection opened now, not by the first batch: its clicks are on disk one flush after
      // their redirects even on a busy PostgreSQL.
      await sql`select 1`.execute(db);
      return 0;
    }
    if (request.kind === 'prune') {
      await pruneClickWriterState(db, request.today);
      return 0;
    }
    await close();
    return 0;
  };
  run().then(
    (written) => port.postMessage({ id: request.id, ok: true, written } satisfies WorkerReply),
    (error: unknown) =>
      port.postMessage({ id: request.id, ok: false, ...workerErrorFields(error) } satisfies WorkerReply),
  );
});
