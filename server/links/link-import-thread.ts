import { linkMessages as m } from '@common/links/link-messages';
import { startDatabaseThread } from '../db/database-thread';
import { AppError } from '../http/app-error';
import type { ImportFormat, ImportParse, ImportRow } from './link-import';

// Reading an import file off the event loop: a thread of its own per file (import-worker.ts), the
// file handed over (not copied), the rows sent back. A file the thread has not read within
// PARSE_DEADLINE_MS is refused as unreadable and the thread stopped, so a file no bound foresaw
// costs a core for seconds, never the instance. Each import runs alone per account.

/** A 10 MB file of well-formed rows reads in about 2 s on a busy 2-core machine. */
const PARSE_DEADLINE_MS = 30_000;

/** The file's format and rows (each a body or its error), or a Spanish 400. */
export async function readImport(bytes: Buffer, deadlineMs = PARSE_DEADLINE_MS): Promise<{ format: ImportFormat; rows: ImportRow[] }> {
  const worker = startDatabaseThread(import.meta.url, 'import-worker', undefined);
  try {
    const parsed = await new Promise<ImportParse>((resolve, reject) => {
      const timer = setTimeout(() => reject(new AppError('validation', m.importTooSlow, { file: [m.importTooSlow] })), deadlineMs);
      const settle = () => clearTimeout(timer);
      worker.once('message', (reply: ImportParse) => (settle(), resolve(reply)));
      worker.once('error', (error) => (settle(), reject(error)));
      worker.once('exit', (code) => (settle(), reject(new Error(`import thread exited (${code})`))));
      // A copy the thread owns, so the request's buffer (Fastify's, possibly pooled) is left alone.
      const owned = new Uint8Array(bytes);
      worker.postMessage(owned, [owned.buffer]);
    });
    if (!parsed.ok) throw new AppError('validation', parsed.message, { file: [parsed.message] });
    return parsed;
  } finally {
    void worker.terminate();
  }
}
