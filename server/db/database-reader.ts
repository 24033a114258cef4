import type { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { type Compilable, sql } from 'kysely';
import pLimit from 'p-limit';
import type { Database, DatabaseHandle } from './database';
import { DatabaseThreadError, startDatabaseThread } from './database-thread';
import { createReaderTasks, runReaderTask, type ReaderTaskInput, type ReaderTaskName, type ReaderTaskResult } from './reader-tasks';
import { PAGE_CACHE_KIB } from './sqlite-connection';
import type { ReaderCall, ReaderReply, ReaderRequest } from './sqlite-reader-protocol';

/**
 * Runs reads that can take milliseconds (statistics, the links list and its search) off the event
 * loop: on a thread with a read-only connection for SQLite, straight on the pool for PostgreSQL.
 */
export interface DatabaseReader {
  /** To build queries with; they are run by rows(). */
  db: Database;
  rows<T>(query: Compilable<T>): Promise<T[]>;
  /** A read whose answer is small (reader-tasks.ts), run whole where the rows are read. */
  run<Name extends ReaderTaskName>(task: Name, input: ReaderTaskInput<Name>): Promise<ReaderTaskResult<Name>>;
  close(): Promise<void>;
}

const POSTGRES_READS_AT_ONCE = 2;

/**
 * A query run on a reader (off the event loop) when given one, else on the connection or
 * transaction given: for reads that serve both a list's page and a single link's answer.
 */
export function rowsOn<T>(from: Database | DatabaseReader, build: (db: Database) => Compilable<T> & { execute(): Promise<T[]> }): Promise<T[]> {
  return 'rows' in from ? from.rows(build(from.db)) : build(from).execute();
}

/**
 * `purpose` names the thread in the log ('stats', 'links'); `pageCacheKib`, its SQLite page cache
 * (sqlite-connection.ts).
 */
export function openDatabaseReader(database: DatabaseHandle, log: FastifyBaseLogger, purpose: string, pageCacheKib = PAGE_CACHE_KIB): DatabaseReader {
  const { db } = database;
  if (database.dialect === 'postgres') {
    // PostgreSQL does the work in its own process: the event loop only waits. At most two at once
    // per reader, as SQLite's one thread does: ten searches of 100,000 titles would otherwise hold
    // all of the pool's connections and every core PostgreSQL can get, and redirects (cache
    // misses), sign-ins and the rest of the API would wait behind them.
    const limit = pLimit(POSTGRES_READS_AT_ONCE);
    const tasks = createReaderTasks();
    const reader: DatabaseReader = {
      db,
      rows: (query) => limit(async () => (await db.executeQuery(query.compile())).rows),
      run: (task, input) => runReaderTask(tasks, reader, task, input),
      close: async () => {},
    };
    return reader;
  }
  return threadReader(
    db,
    () => sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(db).then((r) => r.rows[0]!.file),
    log,
    purpose,
    pageCacheKib,
  );
}

function threadReader(db: Database, findFile: () => Promise<string>, log: FastifyBaseLogger, purpose: string, pageCacheKib: number): DatabaseReader {
  let worker: Worker | undefined;
  let nextId = 0;
  const waiting = new Map<number, { resolve(answer: unknown): void; reject(error: Error): void }>();

  // Started on the first read, not with the app: a process may never need it.
  let starting: Promise<Worker> | undefined;
  const start = (file: string) => {
    const started = startDatabaseThread(import.meta.url, 'sqlite-reader-worker', { file, pageCacheKib });
    started.on('message', (reply: ReaderReply) => {
      const pending = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (reply.ok) pending?.resolve(reply.answer);
      else pending?.reject(new DatabaseThreadError(reply.message, reply.code));
      if (waiting.size === 0) started.unref();
    });
    started.on('error', (error) => log.error({ err: error }, `${purpose} reader thread failed`));
    // A dead thread fails what it owed and is started again by the next read.
    started.on('exit', () => {
      if (worker === started) {
        worker = undefined;
        starting = undefined;
      }
      for (const pending of waiting.values()) pending.reject(new DatabaseThreadError(`${purpose} reader thread exited`, undefined));
      waiting.clear();
    });
    started.unref();
    worker = started;
    return started;
  };
  const ensure = () =>
    (starting ??= findFile()
      .then(start)
      .catch((error: unknown) => {
        starting = undefined;
        throw error;
      }));

  const call = async (request: ReaderCall) => {
    const thread = await ensure();
    return new Promise<unknown>((resolve, reject) => {
      const id = ++nextId;
      waiting.set(id, { resolve, reject });
      thread.ref(); // held while it owes an answer, so a request in flight keeps the process up
      thread.postMessage({ ...request, id } satisfies ReaderRequest);
    });
  };

  return {
    db,
    async rows<T>(query: Compilable<T>) {
      const { sql: text, parameters } = query.compile();
      return (await call({ kind: 'all', sql: text, parameters })) as T[];
    },
    async run(task, input) {
      return (await call({ kind: 'task', task, input })) as ReaderTaskResult<typeof task>;
    },
    async close() {
      const closing = worker;
      if (!closing) return;
      await call({ kind: 'close' }).catch(() => {});
      await closing.terminate();
    },
  };
}
