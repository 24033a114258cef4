import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/database';
import { pruneOldVisitors, writeClickBatch } from './click-batch';
import type { EnrichedClick } from './enrich';
import type { WorkerCall, WorkerReply, WorkerRequest } from './sqlite-writer-protocol';

/** Where batches go: the same transaction either way, run here (PostgreSQL) or on a thread (SQLite). */
export interface ClickSink {
  write(clicks: EnrichedClick[]): Promise<number>;
  prune(today: number): Promise<void>;
  close(): Promise<void>;
}

/** Batches for SQLite go to a thread, for PostgreSQL straight to the pool. */
export function openClickSink(database: DatabaseHandle, log: FastifyBaseLogger): ClickSink {
  if (database.dialect === 'postgres') return inProcessSink(database);
  const file = sql<{ file: string }>`select file from pragma_database_list where name = 'main'`
    .execute(database.db)
    .then((result) => result.rows[0]!.file);
  return workerSink(file, log);
}

/** PostgreSQL does the work in its own process: the event loop only sends the arrays. */
export function inProcessSink({ db }: Pick<DatabaseHandle, 'db'>): ClickSink {
  return {
    write: (clicks) => writeClickBatch(db, clicks),
    prune: (today) => pruneOldVisitors(db, today),
    close: async () => {},
  };
}

const here = path.dirname(fileURLToPath(import.meta.url));

// Bundled, the worker sits beside main.js as plain JS; from source it is TypeScript, which a
// worker can only load once tsx's hooks are registered in it.
function startWorker(file: string): Worker {
  const bundled = path.join(here, 'sqlite-writer-worker.js');
  if (existsSync(bundled)) return new Worker(bundled, { workerData: { file } });
  const source = pathToFileURL(path.join(here, 'sqlite-writer-worker.ts')).href;
  // tsx's ESM entry (require.resolve would give the CommonJS one, which cannot register hooks here).
  const tsxDir = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsx = pathToFileURL(path.join(tsxDir, 'dist/esm/api/index.mjs')).href;
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(boot, { eval: true, workerData: { file } });
}

/** An error carrying the driver's code, so the writer can tell bad data from a busy database. */
class SinkError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export function workerSink(file: Promise<string>, log: FastifyBaseLogger): ClickSink {
  let worker: Worker | undefined;
  let nextId = 0;
  const waiting = new Map<number, { resolve(written: number): void; reject(error: Error): void }>();

  let path: string | undefined;
  const ensure = () => {
    if (worker) return worker;
    const started = startWorker(path!);
    started.on('message', (reply: WorkerReply) => {
      const pending = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (reply.ok) pending?.resolve(reply.written);
      else pending?.reject(new SinkError(reply.message, reply.code));
    });
    // A dead worker fails what it held (the writer keeps those clicks and retries) and is
    // started again on the next batch.
    started.on('error', (error) => log.error({ err: error }, 'click writer thread failed'));
    started.on('exit', () => {
      if (worker === started) worker = undefined;
      for (const pending of waiting.values()) pending.reject(new SinkError('click writer thread exited', undefined));
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
  file.then(
    (resolved) => {
      path = resolved;
      ensure();
    },
    (error: unknown) => log.error({ err: error }, 'click writer: could not find the SQLite file'),
  );

  return {
    async write(clicks) {
      path ??= await file;
      return call({ kind: 'write', clicks });
    },
    async prune(today) {
      path ??= await file;
      await call({ kind: 'prune', today });
    },
    async close() {
      if (!worker) return;
      const closing = worker;
      await call({ kind: 'close' }).catch(() => {});
      await closing.terminate();
    },
  };
}
