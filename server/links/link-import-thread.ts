import { linkMessages as m } from '@common/links/link-messages';
import { startDatabaseThread } from '../db/database-thread';
import { AppError } from '../http/app-error';
import type { ImportFormat, ImportParse, ImportRow } from './link-import';

// Reading an import file off the event loop: a thread of its own per file (import-worker.ts), the
// rows sent back. The file goes to the thread a chunk at a time as it arrives, never gathered on
// the event loop: a 10 MB file gathered and copied there made 30 MB of buffers per file, and
// V8's old-space collections they set off held redirects for up to 30 ms at a time. A file the
// thread has not read within PARSE_DEADLINE_MS of its last byte is refused as unreadable and the
// thread stopped, so a file no bound foresaw costs a core for seconds, never the instance. Each
// import runs alone per account.

/** A 10 MB file of well-formed rows reads in about 2 s on a busy 2-core machine. */
const PARSE_DEADLINE_MS = 30_000;

/** An uploaded file as @fastify/multipart streams it: its chunks, and whether it was cut at the size limit. */
export interface ImportUpload extends AsyncIterable<Uint8Array> {
  truncated?: boolean;
}

const tooLarge = () => new AppError('payload_too_large', m.importTooLarge, { file: [m.importTooLarge] });

/** The file's format and rows (each a body or its error), or a Spanish 400 (413 past the size limit). */
export async function readImport(upload: ImportUpload, deadlineMs = PARSE_DEADLINE_MS): Promise<{ format: ImportFormat; rows: ImportRow[] }> {
  const worker = startDatabaseThread(import.meta.url, 'import-worker', undefined);
  try {
    const parsed = new Promise<ImportParse>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`import thread exited (${code})`)));
    });
    // Settled now or never awaited (a refused upload), it must not count as unhandled.
    parsed.catch(() => {});
    // The size limit is the multipart plugin's (fileSize, set where the route registers it): it cuts
    // the file there and says so in `truncated`.
    for await (const chunk of upload) {
      if (upload.truncated) throw tooLarge();
      // Cloned, not transferred: the chunk is a view of the socket's read, which stays Fastify's.
      worker.postMessage(chunk);
    }
    if (upload.truncated) throw tooLarge();
    worker.postMessage(null);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new AppError('validation', m.importTooSlow, { file: [m.importTooSlow] })), deadlineMs);
    });
    const reply = await Promise.race([parsed, deadline]).finally(() => clearTimeout(timer));
    if (!reply.ok) throw new AppError('validation', reply.message, { file: [reply.message] });
    return reply;
  } finally {
    void worker.terminate();
  }
}
