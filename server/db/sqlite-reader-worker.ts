// Reads of the embedded database that can take milliseconds (statistics, the export, the links list
// and its title search), on a thread of their own: better-sqlite3 is synchronous, and summing a year
// of roll-ups or scanning 100,000 titles would otherwise stall every redirect. A read-only
// connection to the same file (WAL lets it read beside the writer).
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { type Compilable, Kysely, SqliteDialect } from 'kysely';
import type { DatabaseReader } from './database-reader';
import { createReaderTasks, runReaderTask } from './reader-tasks';
import type { DB } from './schema';
import type { ReaderReply, ReaderRequest } from './sqlite-reader-protocol';
import { lowerThisThreadPriority, workerErrorFields } from './database-thread';
import { configureReadingConnection } from './sqlite-connection';
import { statementCache } from './statement-cache';

const { file, pageCacheKib } = workerData as { file: string; pageCacheKib: number };
lowerThisThreadPriority();
const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
configureReadingConnection(sqlite, pageCacheKib);
// A page, its totals and its former aliases are the same few texts on every request.
const prepare = statementCache(sqlite, 64);

// Tasks build their queries with Kysely (compiled here, never run through it) and read them here.
const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
const rowsOf = (sql: string, parameters: readonly unknown[]) => prepare(sql).all(...parameters) as Record<string, unknown>[];
const here: DatabaseReader = {
  db,
  rows: async <T>(query: Compilable<T>) => {
    const { sql, parameters } = query.compile();
    return rowsOf(sql, parameters) as T[];
  },
  run: (task, input) => runReaderTask(tasks, here, task, input),
  close: async () => {},
};
const tasks = createReaderTasks();

const port = parentPort!;
port.on('message', (request: ReaderRequest) => {
  const fail = (error: unknown) => port.postMessage({ id: request.id, ok: false, ...workerErrorFields(error) } satisfies ReaderReply);
  try {
    if (request.kind === 'close') {
      sqlite.close();
      port.postMessage({ id: request.id, ok: true, answer: [] } satisfies ReaderReply);
    } else if (request.kind === 'task') {
      // Its reads are synchronous: the task has answered before the next message is taken.
      runReaderTask(tasks, here, request.task, request.input as never).then((answer) => port.postMessage({ id: request.id, ok: true, answer } satisfies ReaderReply), fail);
    } else {
      port.postMessage({ id: request.id, ok: true, answer: rowsOf(request.sql, request.parameters) } satisfies ReaderReply);
    }
  } catch (error) {
    fail(error);
  }
});
