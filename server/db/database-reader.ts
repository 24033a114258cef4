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
 * (sqlite-connection.ts); `idleMs`, how long its thread waits for a read before it ends. With
 * SQLite, readers of one database opened with the same settings share one thread.
 */
export function openDatabaseReader(
  database: DatabaseHandle,
  log: FastifyBaseLogger,
  purpose: string,
  { pageCacheKib = PAGE_CACHE_KIB, idleMs = READER_IDLE_MS }: { pageCacheKib?: number; idleMs?: number } = {},
): DatabaseReader {
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
  return sharedThreadReader(database, log, purpose, pageCacheKib, idleMs);
}

interface SharedThreads {
  /** Where reads go. */
  first: ThreadReader;
  /** Where a read goes while the first is held by a long one. */
  overflow: ThreadReader;
  /** What each reader sharing them reads for: the threads' name in the log. */
  purposes: string[];
}

/**
 * The SQLite readers of one database with the same settings, by those settings: they share their
 * threads. Each thread costs its own V8 heap, young generation and allocator arena (some 20 MB
 * once it has worked), and the links list, the statistics, the operator's searches and the MCP
 * tools rarely read at the same moment. Measured with `npm run bench:memory`, in docs/operator.md.
 */
const sharedThreads = new WeakMap<DatabaseHandle, Map<string, SharedThreads>>();

/**
 * How long the first thread may be on one read before the next read goes to a second thread: a
 * links page or a search (a few ms) does not wait behind the first read of a year of statistics
 * (over a second for a link clicked from everywhere) longer than this and the second thread's start.
 */
export const OVERFLOW_AFTER_MS = 100;

function sharedThreadReader(database: DatabaseHandle, log: FastifyBaseLogger, purpose: string, pageCacheKib: number, idleMs: number): DatabaseReader {
  const { db } = database;
  let byKey = sharedThreads.get(database);
  if (!byKey) sharedThreads.set(database, (byKey = new Map()));
  const key = `${pageCacheKib}:${idleMs}`;
  let shared = byKey.get(key);
  if (!shared) {
    const purposes: string[] = [];
    const findFile = () => sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(db).then((r) => r.rows[0]!.file);
    const named = (suffix: string) => () => purposes.join('+') + suffix;
    shared = {
      purposes,
      first: threadReader(db, findFile, log, named(''), pageCacheKib, idleMs),
      overflow: threadReader(db, findFile, log, named(' (overflow)'), pageCacheKib, idleMs),
    };
    byKey.set(key, shared);
  }
  const threads = shared;
  threads.purposes.push(purpose);
  const pick = () => (threads.first.busyFor() > OVERFLOW_AFTER_MS ? threads.overflow : threads.first);
  let open = true;
  return {
    db,
    rows: (query) => pick().rows(query),
    run: (task, input) => pick().run(task, input),
    // The last reader to close ends the threads.
    async close() {
      if (!open) return;
      open = false;
      threads.purposes.splice(threads.purposes.indexOf(purpose), 1);
      if (threads.purposes.length > 0) return;
      if (byKey.get(key) === threads) byKey.delete(key);
      await Promise.all([threads.first.close(), threads.overflow.close()]);
    },
  };
}

/**
 * How long a reader's thread waits for its next read before it ends. A thread costs some 10 MB
 * however little it holds, and its heap keeps what its busiest moment needed (a year of statistics
 * summed, a search's pages); ended, it gives all of it back, and the next read starts another
 * (that read then takes some 80 ms more, once). Measured with `npm run bench:memory`, in
 * docs/operator.md.
 */
export const READER_IDLE_MS = 30_000;

/** A reader on a thread of its own, saying how long it has been on its current read. */
interface ThreadReader extends DatabaseReader {
  /** Milliseconds since the read it is on began; 0 when it has none. */
  busyFor(): number;
}

interface ReaderThread {
  worker: Worker;
  /** The reads it owes an answer, by request id. */
  waiting: Map<number, { resolve(answer: unknown): void; reject(error: Error): void }>;
}

function threadReader(db: Database, findFile: () => Promise<string>, log: FastifyBaseLogger, purposeOf: () => string, pageCacheKib: number, idleMs: number): ThreadReader {
  let current: ReaderThread | undefined;
  /** When the read the thread is on began (a thread takes its reads one after the other). */
  let onReadSince: number | undefined;
  // Started on the first read, not with the app: a process may never need it.
  let starting: Promise<ReaderThread> | undefined;
  let nextId = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  /** A thread ended for idleness, until it has closed its connection. */
  let ending: Promise<void> = Promise.resolve();

  const send = (thread: ReaderThread, request: ReaderCall) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++nextId;
      thread.waiting.set(id, { resolve, reject });
      thread.worker.ref(); // held while it owes an answer, so a request in flight keeps the process up
      thread.worker.postMessage({ ...request, id } satisfies ReaderRequest);
    });

  /** Reads from now on go to a thread of their own. */
  const forget = (thread: ReaderThread) => {
    if (current === thread) {
      current = undefined;
      starting = undefined;
    }
  };

  /** Closes its connection and ends it. */
  const stop = async (thread: ReaderThread) => {
    forget(thread);
    await send(thread, { kind: 'close' }).catch(() => {});
    await thread.worker.terminate();
  };

  const start = (file: string) => {
    const worker = startDatabaseThread(import.meta.url, 'sqlite-reader-worker', { file, pageCacheKib });
    const thread: ReaderThread = { worker, waiting: new Map() };
    log.debug(`${purposeOf()} reader thread started`);
    worker.on('message', (reply: ReaderReply) => {
      const pending = thread.waiting.get(reply.id);
      thread.waiting.delete(reply.id);
      if (reply.ok) pending?.resolve(reply.answer);
      else pending?.reject(new DatabaseThreadError(reply.message, reply.code));
      if (thread.waiting.size > 0) return;
      worker.unref();
      if (current !== thread) return;
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        if (current !== thread || thread.waiting.size > 0) return;
        log.debug({ idleMs }, `${purposeOf()} reader thread ended, idle`);
        ending = stop(thread);
      }, idleMs).unref();
    });
    worker.on('error', (error) => log.error({ err: error }, `${purposeOf()} reader thread failed`));
    // A dead thread fails what it owed and is started again by the next read.
    worker.on('exit', () => {
      forget(thread);
      for (const pending of thread.waiting.values()) pending.reject(new DatabaseThreadError(`${purposeOf()} reader thread exited`, undefined));
      thread.waiting.clear();
    });
    worker.unref();
    current = thread;
    return thread;
  };
  const ensure = () =>
    (starting ??= findFile()
      .then(start)
      .catch((error: unknown) => {
        starting = undefined;
        throw error;
      }));

  let owed = 0;
  const call = async (request: ReaderCall) => {
    clearTimeout(idleTimer);
    if (owed++ === 0) onReadSince = performance.now();
    try {
      return await send(await ensure(), request);
    } finally {
      // Answers come in the order asked: the next read owed begins now.
      onReadSince = --owed > 0 ? performance.now() : undefined;
    }
  };

  return {
    db,
    busyFor: () => (onReadSince === undefined ? 0 : performance.now() - onReadSince),
    async rows<T>(query: Compilable<T>) {
      const { sql: text, parameters } = query.compile();
      return (await call({ kind: 'all', sql: text, parameters })) as T[];
    },
    async run(task, input) {
      return (await call({ kind: 'task', task, input })) as ReaderTaskResult<typeof task>;
    },
    async close() {
      clearTimeout(idleTimer);
      const thread = await starting?.catch(() => undefined);
      if (thread) await stop(thread);
      await ending;
    },
  };
}
