// The import's parsing thread (link-import-thread.ts starts one per file): gathers the file's chunks
// as they arrive (null ends it), reads it with parseImport and sends back its rows, so that no
// file, however malformed, holds the event loop. At a lower priority than the event loop, which
// gets a shared core first.
import { parentPort } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../db/database-thread';
import { parseImport } from './link-import';

lowerThisThreadPriority();
const port = parentPort!;
const chunks: Uint8Array[] = [];
port.on('message', (chunk: Uint8Array | null) => {
  if (chunk) return void chunks.push(chunk);
  port.postMessage(parseImport(Buffer.concat(chunks)));
});
