import type { Visit } from './enrich';

// Messages between the click writer and its thread (SQLite, and PostgreSQL through its own pool).

/** Where the thread writes: the SQLite file (WAL, its own connection), or a PostgreSQL server. */
export type WriterTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema: string | undefined };

/**
 * A batch of raw visits as one array per field: cloning five arrays to the thread costs a third of
 * cloning as many objects on the event loop, and reading them back a third on the thread.
 */
export interface VisitColumns {
  urlId: number[];
  at: number[];
  ip: string[];
  userAgent: Array<string | undefined>;
  referrer: Array<string | undefined>;
  /** Where the visits with `limited` are (few or none). */
  limited: number[];
  /** Positions of the scans (visits from a QR code): few, so a list of them rather than a flag each. */
  scans: number[];
}

export function toColumns(visits: Visit[]): VisitColumns {
  const columns: VisitColumns = { urlId: [], at: [], ip: [], userAgent: [], referrer: [], limited: [], scans: [] };
  for (const visit of visits) {
    if (visit.limited) columns.limited.push(columns.urlId.length);
    if (visit.scan) columns.scans.push(columns.urlId.length);
    columns.urlId.push(visit.urlId);
    columns.at.push(visit.at);
    columns.ip.push(visit.ip);
    columns.userAgent.push(visit.userAgent);
    columns.referrer.push(visit.referrer);
  }
  return columns;
}

export function fromColumns({ urlId, at, ip, userAgent, referrer, limited, scans }: VisitColumns): Visit[] {
  const visits: Visit[] = urlId.map((id, i) => ({ urlId: id, at: at[i]!, ip: ip[i]!, userAgent: userAgent[i], referrer: referrer[i] }));
  for (const i of limited) visits[i]!.limited = true;
  for (const i of scans) visits[i]!.scan = true;
  return visits;
}

/** Raw visits: the thread enriches them (device, geo, bot, visitor hash), so the event loop does not. */
export type WorkerCall =
  /** `batch`: the id the writer gave the batch, the same when it sends it again. */
  | { kind: 'write'; visits: VisitColumns; batch: string }
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
