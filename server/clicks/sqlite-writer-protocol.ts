import type { PackedVisits } from './visit-batch';

// Messages between the click writer and its thread (SQLite, and PostgreSQL through its own pool).

/** Where the thread writes: the SQLite file (WAL, its own connection), or a PostgreSQL server. */
export type WriterTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema: string | undefined };

/** Raw visits: the thread enriches them (device, geo, bot, visitor hash), so the event loop does not. */
export type WorkerCall =
  /** `batch`: the id the writer gave the batch, the same when it sends it again. */
  /** `announce`: the webhooks' outbox gets the batch's link.clicked events (ClickAnnouncement). */
  | { kind: 'write'; visits: PackedVisits; batch: string; announce?: { publicBaseUrl: string } }
  | { kind: 'prune'; today: number }
  /** Answers once the thread can enrich: its IP database loaded (or failed to). */
  | { kind: 'ready' }
  | { kind: 'close' };

export type WorkerRequest = WorkerCall & { id: number };

export type WorkerReply =
  | { id: number; ok: true; written: number }
  | { id: number; ok: false; message: string; code: string | undefined }
  /** A line for the main thread's logger (the thread has none of its own). */
  | { id: 0; log: 'error'; message: string; err: string };
