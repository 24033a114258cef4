import type { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { startDatabaseThread } from '../db/database-thread';

// Stored QR PNGs drawn on a thread of their own (qr-worker.ts), for the import: a batch of texts
// in, their PNGs out, in order. Started on the first batch, not with the app, and let go of
// (unref) while it owes nothing, so it never keeps a process alive; a thread that dies fails
// what it owed and is started again by the next batch.

export type QrThreadRequest = { id: number; texts: string[] };
export type QrThreadReply = { id: number; ok: true; bytes: Uint8Array; lengths: number[] } | { id: number; ok: false; message: string };

export interface QrThread {
  /** The stored QR PNG (qrPng) of each text, in order. */
  draw(texts: string[]): Promise<Buffer[]>;
  close(): Promise<void>;
}

export function createQrThread(log: FastifyBaseLogger): QrThread {
  let worker: Worker | undefined;
  let nextId = 0;
  const waiting = new Map<number, { resolve(pngs: Buffer[]): void; reject(error: Error): void }>();

  const start = () => {
    // The helper that starts the database threads starts this one too (bundled or from source).
    const started = startDatabaseThread(import.meta.url, 'qr-worker', undefined);
    started.on('message', (reply: QrThreadReply) => {
      const pending = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (waiting.size === 0) started.unref();
      if (!reply.ok) return pending?.reject(new Error(`QR thread: ${reply.message}`));
      const bytes = Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength);
      let at = 0;
      pending?.resolve(reply.lengths.map((length) => bytes.subarray(at, (at += length))));
    });
    started.on('error', (error) => log.error({ err: error }, 'QR thread failed'));
    started.on('exit', () => {
      if (worker === started) worker = undefined;
      for (const pending of waiting.values()) pending.reject(new Error('QR thread exited'));
      waiting.clear();
    });
    started.unref();
    return started;
  };

  return {
    draw(texts) {
      if (texts.length === 0) return Promise.resolve([]);
      const thread = (worker ??= start());
      return new Promise((resolve, reject) => {
        const id = ++nextId;
        waiting.set(id, { resolve, reject });
        thread.ref(); // held while it owes an answer
        thread.postMessage({ id, texts } satisfies QrThreadRequest);
      });
    },
    async close() {
      const closing = worker;
      worker = undefined;
      await closing?.terminate();
    },
  };
}
