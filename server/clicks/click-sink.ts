import type { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Database, DatabaseHandle } from '../db/database';
import { DatabaseThreadError, startDatabaseThread } from '../db/database-thread';
import { type ClickAnnouncement, pruneClickWriterState, writeClickBatch } from './click-batch';
import { createEnricher } from './enrich';
import type { Geo } from './geo';
import type { WorkerCall, WorkerReply, WorkerRequest, WriterTarget } from './sqlite-writer-protocol';
import type { VisitBatch } from './visit-batch';

/** Where batches of raw visits go: enriched and written in one transaction, on a thread or here. */
export interface ClickSink {
  /** Resolves once a batch would be enriched and written at once (thread started, IP database loaded). */
  ready(): Promise<void>;
  /**
   * `batchId`: the same each time a batch is sent again, so a batch already written is not written
   * twice. The batch is read until the promise settles, and must not change meanwhile.
   */
  write(batch: VisitBatch, batchId: string, announce?: ClickAnnouncement): Promise<number>;
  prune(today: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Batches go to a thread that enriches and writes them: with SQLite through its own connection
 * to the file, with PostgreSQL through its own small pool. Only a handle that does not say where
 * its PostgreSQL is (built by hand) is written from this thread, enriched with `geo`.
 */
export function openClickSink(database: DatabaseHandle, log: FastifyBaseLogger, geo: () => Geo): ClickSink {
  if (database.dialect === 'postgres') {
    const target = database.target;
    if (target?.kind !== 'postgres') return inProcessSink(database.db, geo());
    return workerSink(Promise.resolve({ kind: 'postgres', url: target.url, schema: target.schema }), log);
  }
  const file = sql<{ file: string }>`select file from pragma_database_list where name = 'main'`
    .execute(database.db)
    .then((result): WriterTarget => ({ kind: 'sqlite', file: result.rows[0]!.file }));
  return workerSink(file, log);
}

/** Enriched and written on this thread: PostgreSQL does the writing work in its own process. */
export function inProcessSink(db: Database, geo: Geo): ClickSink {
  const enrich = createEnricher(geo);
  return {
    ready: () => geo.ready,
    write: async (batch, batchId, announce) => {
      await geo.ready; // a click is never located as Unknown just because the file was still loading
      return writeClickBatch(db, batch.visits().map(enrich), batchId, announce);
    },
    prune: (today) => pruneClickWriterState(db, today),
    close: async () => {},
  };
}

export function workerSink(where: Promise<WriterTarget>, log: FastifyBaseLogger): ClickSink {
  let worker: Worker | undefined;
  let nextId = 0;
  const waiting = new Map<number, { resolve(written: number): void; reject(error: Error): void }>();

  let target: WriterTarget | undefined;
  const ensure = () => {
    if (worker) return worker;
    const started = startDatabaseThread(import.meta.url, 'sqlite-writer-worker', { target: target! });
    started.on('message', (reply: WorkerReply) => {
      if ('log' in reply) return log.error({ err: reply.err }, reply.message);
      const pending = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (reply.ok) pending?.resolve(reply.written);
      else pending?.reject(new DatabaseThreadError(reply.message, reply.code));
    });
    // A dead worker fails what it held (the writer keeps those clicks and retries) and is
    // started again on the next batch.
    started.on('error', (error) => log.error({ err: error }, 'click writer thread failed'));
    started.on('exit', () => {
      if (worker === started) worker = undefined;
      for (const pending of waiting.values()) pending.reject(new DatabaseThreadError('click writer thread exited', undefined));
      waiting.clear();
    });
    started.unref();
    worker = started;
    return started;
  };

  // Referenced only while it holds work: a drain on shutdown must keep the process alive,
  // an idle writer must not.
  const call = (request: WorkerCall) =>
    new Promise<number>((resolve, reject) => {
      const id = ++nextId;
      const thread = ensure();
      const settle = () => {
        if (waiting.size === 0) thread.unref();
      };
      waiting.set(id, {
        resolve: (written) => (resolve(written), settle()),
        reject: (error) => (reject(error), settle()),
      });
      thread.ref();
      thread.postMessage({ ...request, id } satisfies WorkerRequest);
    });

  // Started at once, so its start-up (a second or so from source) is not paid by the first batch.
  where.then(
    (resolved) => {
      target = resolved;
      ensure();
    },
    (error: unknown) => log.error({ err: error }, 'click writer: could not find the SQLite file'),
  );

  return {
    async ready() {
      target ??= await where;
      await call({ kind: 'ready' });
    },
    async write(batch, batchId, announce) {
      target ??= await where;
      return call({ kind: 'write', visits: batch.packed(), batch: batchId, ...(announce ? { announce } : {}) });
    },
    async prune(today) {
      target ??= await where;
      await call({ kind: 'prune', today });
    },
    async close() {
      if (!worker) return;
      const closing = worker;
      // A thread never asked anything (no ready, batch or prune: no call numbered yet) holds nothing
      // to write: stopped at once, not after its start-up (a second or so from source, where every
      // test's app closes so).
      if (nextId === 0) return void (await closing.terminate());
      await call({ kind: 'close' }).catch(() => {});
      await closing.terminate();
    },
  };
}
