// The import's parsing thread (link-import-thread.ts starts one per file): reads the file with
// parseImport and sends back its rows, so that no file, however malformed, holds the event loop.
// At a lower priority than the event loop, which gets a shared core first.
import { parentPort } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../db/database-thread';
import { parseImport } from './link-import';

lowerThisThreadPriority();
const port = parentPort!;
port.once('message', (bytes: Uint8Array) => {
  port.postMessage(parseImport(bytes));
});
