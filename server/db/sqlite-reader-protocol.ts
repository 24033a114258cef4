// Messages between a database reader and its SQLite thread.

export type ReaderCall = { kind: 'all'; sql: string; parameters: readonly unknown[] } | { kind: 'close' };

export type ReaderRequest = ReaderCall & { id: number };

export type ReaderReply =
  | { id: number; ok: true; rows: Record<string, unknown>[] }
  | { id: number; ok: false; message: string; code: string | undefined };
