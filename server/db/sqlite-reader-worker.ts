// Reads of the embedded database that can take milliseconds (statistics, the export, the links list
// and its title search), on a thread of their own: better-sqlite3 is synchronous, and summing a year
// of roll-ups or scanning 100,000 titles would otherwise stall every redirect. A read-only
// connection to the same file (WAL lets it read beside the writer).
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import type { ReaderReply, ReaderRequest } from './sqlite-reader-protocol';
import { lowerThisThreadPriority, workerErrorFields } from './database-thread';
import { configureReadingConnection } from './sqlite-connection';
import { statementCache } from './statement-cache';

const { file } = workerData as { file: string };
lowerThisThreadPriority();
const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
configureReadingConnection(sqlite);
// A page, its totals and its former aliases are the same few texts on every request.
const prepare = statementCache(sqlite, 64);

const port = parentPort!;
port.on('message', (request: ReaderRequest) => {
  try {
    if (request.kind === 'close') {
      sqlite.close();
      port.postMessage({ id: request.id, ok: true, rows: [] } satisfies ReaderReply);
      return;
    }
    const rows = prepare(request.sql).all(...request.parameters) as Record<string, unknown>[];
    port.postMessage({ id: request.id, ok: true, rows } satisfies ReaderReply);
  } catch (error) {
    port.postMessage({ id: request.id, ok: false, ...workerErrorFields(error) } satisfies ReaderReply);
  }
});
