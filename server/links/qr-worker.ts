// The import's QR thread (qr-thread.ts starts it): draws stored QR PNGs, a batch a message, so that
// 10,000 codes (about 0.7 ms each) are not drawn on the event loop. At a lower priority than the
// event loop, which gets a shared core first.
import { parentPort } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../db/database-thread';
import { qrPng } from './qr';
import type { QrThreadReply, QrThreadRequest } from './qr-thread';

lowerThisThreadPriority();
const port = parentPort!;
port.on('message', ({ id, texts }: QrThreadRequest) => {
  try {
    const pngs = texts.map(qrPng);
    // All of them in one buffer handed over (not copied), each by its length.
    const bytes = new Uint8Array(pngs.reduce((total, png) => total + png.length, 0));
    let at = 0;
    for (const png of pngs) {
      bytes.set(png, at);
      at += png.length;
    }
    port.postMessage({ id, ok: true, bytes, lengths: pngs.map((png) => png.length) } satisfies QrThreadReply, [bytes.buffer]);
  } catch (error) {
    port.postMessage({ id, ok: false, message: String((error as Error | undefined)?.message ?? error) } satisfies QrThreadReply);
  }
});
