import type { ReaderTaskName } from './reader-tasks';

// Messages between a database reader and its SQLite thread.

export type ReaderCall =
  | { kind: 'all'; sql: string; parameters: readonly unknown[] }
  /** One of reader-tasks.ts, run on the thread: only its answer comes back. */
  | { kind: 'task'; task: ReaderTaskName; input: unknown }
  | { kind: 'close' };

export type ReaderRequest = ReaderCall & { id: number };

export type ReaderReply =
  /** `answer`: the rows of an 'all', a task's result. */
  | { id: number; ok: true; answer: unknown }
  | { id: number; ok: false; message: string; code: string | undefined };
