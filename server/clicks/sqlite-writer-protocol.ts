import type { EnrichedClick } from './enrich';

// Messages between the click writer and its SQLite thread.

export type WorkerCall = { kind: 'write'; clicks: EnrichedClick[] } | { kind: 'prune'; today: number } | { kind: 'close' };

export type WorkerRequest = WorkerCall & { id: number };

export type WorkerReply =
  | { id: number; ok: true; written: number }
  | { id: number; ok: false; message: string; code: string | undefined };
