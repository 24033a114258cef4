import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../db/database';
import type { ClickAnnouncement } from './click-batch';
import { openClickSink } from './click-sink';
import type { Visit } from './enrich';
import { type Geo, openGeo } from './geo';
import { type VisitBatch, VisitBatchPool } from './visit-batch';
import { isDataError } from './write-errors';
import { dayOf } from './visitors';

const MAX_BATCH = 5000; // clicks per transaction: keeps each SQLite write lock short
const BATCHES_KEPT = 2; // emptied batches kept for reuse: one is filled while another is written
const MAX_BACKOFF_MS = 5000;
const DRAIN_LIMIT_MS = 15_000; // on shutdown, how long we keep retrying an unavailable database
const SHED_LOG_EVERY_MS = 10_000;

export interface ClickWriterStats {
  queued: number;
  written: number;
  /** Refused because the queue was full (the database was away too long). */
  shed: number;
  /** Rejected by the database as data, one by one, after isolating them. */
  rejected: number;
  /** Taken into the queue since the start. */
  accepted: number;
  /** Batches written, and the seconds their writes took in all. */
  batches: number;
  batchSeconds: number;
  /** The oldest click still waiting, in ms since the epoch; undefined when none waits. */
  oldestQueuedAt: number | undefined;
}

export interface ClickWriter {
  /**
   * Resolves once clicks would be written as soon as they are flushed: the writer's thread has
   * started and loaded its IP database. Until then they wait in the queue, where a crash loses them.
   */
  ready(): Promise<void>;
  /** Queues a visit; never blocks, never throws. */
  record(visit: Visit): void;
  /** Writes everything queued so far; rejects if the database cannot take it now. */
  flush(): Promise<void>;
  /** Stops the timer and drains the queue (retrying for a while if the database is away). */
  close(): Promise<void>;
  stats(): ClickWriterStats;
}

export interface ClickWriterOptions {
  database: DatabaseHandle;
  /**
   * Only for a PostgreSQL handle that does not say where its server is, whose clicks are then
   * enriched on this thread; otherwise the writer's thread enriches with an IP database of its own.
   */
  geo?: Geo;
  log: FastifyBaseLogger;
  flushMs: number;
  queueLimit: number;
  /**
   * Told of each batch once it is written (the live feed). Synchronous: the batch is emptied for
   * reuse as soon as it returns.
   */
  onWritten?: (batch: VisitBatch) => void;
  /**
   * Asked before each batch: set when a webhook may want clicks, whose events are then written in
   * the batch's transaction; `announced` is told after such a batch is committed.
   */
  webhooks?: { announcement(): ClickAnnouncement | undefined; announced(): void };
}

export function createClickWriter({ database, geo, log, flushMs, queueLimit, onWritten, webhooks }: ClickWriterOptions): ClickWriter {
  const sink = openClickSink(database, log, () => geo ?? openGeo(log));
  const pool = new VisitBatchPool(MAX_BATCH, BATCHES_KEPT);
  // Oldest first; visits are appended to the last. A full one is written at once, without waiting
  // for the timer.
  const queue: VisitBatch[] = [];
  let queueCount = 0;
  // Batches taken from the queue and not yet committed (raw: the sink enriches them); a batch the
  // database rejects as data is split in halves until the offending click is found, so one bad
  // row costs one click.
  // Each with the id it keeps while retried: a batch written whose answer was lost is not written twice.
  const pending: { batch: VisitBatch; id: string }[] = [];
  let pendingCount = 0;
  const counts = { written: 0, shed: 0, rejected: 0, accepted: 0, batches: 0, batchSeconds: 0 };
  let backoffMs = 0;
  let retryAt = 0;
  let failingSince = 0;
  let lastShedLog = 0;
  let prunedDay = -1;
  let busy: Promise<boolean> | undefined;

  const queued = () => queueCount + pendingCount;

  async function writeOne(): Promise<boolean> {
    if (pending.length === 0) {
      const batch = queue.shift()!;
      queueCount -= batch.count;
      pending.push({ batch, id: randomUUID() });
      pendingCount += batch.count;
    }
    const { batch, id } = pending[pending.length - 1]!;
    try {
      const started = performance.now();
      const announce = webhooks?.announcement();
      await sink.write(batch, id, announce);
      if (announce) webhooks!.announced();
      counts.batches += 1;
      counts.batchSeconds += (performance.now() - started) / 1000;
      pending.pop();
      pendingCount -= batch.count;
      counts.written += batch.count;
      try {
        onWritten?.(batch);
      } catch (error) {
        log.warn({ err: error }, 'click writer: a listener of written batches failed');
      }
      pool.give(batch);
      if (failingSince) log.info({ downMs: Date.now() - failingSince, queued: queued() }, 'click writer: database back');
      failingSince = 0;
      backoffMs = 0;
      await pruneOnceADay();
      return true;
    } catch (error) {
      if (isDataError(error)) {
        pending.pop();
        if (batch.count === 1) {
          pendingCount -= 1;
          counts.rejected += 1;
          log.error({ err: error, urlId: batch.visits()[0]!.urlId }, 'click writer: the database refused a click; it is dropped');
        } else {
          const half = Math.ceil(batch.count / 2);
          // Never written (the database refused the whole batch): each half is a batch of its own.
          pending.push({ batch: batch.slice(half, batch.count), id: randomUUID() }, { batch: batch.slice(0, half), id: randomUUID() });
        }
        pool.give(batch);
        return true;
      }
      // Anything else may pass: hold everything and try again later, backing off.
      if (!failingSince) {
        failingSince = Date.now();
        log.warn({ err: error, queued: queued() }, 'click writer: database unavailable, holding clicks and retrying');
      }
      backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(flushMs, backoffMs * 2));
      retryAt = Date.now() + backoffMs;
      return false;
    }
  }

  async function pruneOnceADay() {
    const today = dayOf(Date.now());
    if (today === prunedDay) return;
    prunedDay = today;
    await sink.prune(today).catch((error: unknown) => {
      log.warn({ err: error }, 'click writer: could not prune old visitor hashes');
    });
  }

  function step(): Promise<boolean> {
    busy ??= writeOne().finally(() => {
      busy = undefined;
      if (queue[0]?.full) setImmediate(tick);
    });
    return busy;
  }

  function tick() {
    if (!busy && queued() > 0 && Date.now() >= retryAt) void step();
  }

  const timer = setInterval(tick, flushMs);
  timer.unref();

  return {
    ready: () => sink.ready(),

    record(visit) {
      if (queued() >= queueLimit) {
        counts.shed += 1;
        const now = Date.now();
        if (now - lastShedLog >= SHED_LOG_EVERY_MS) {
          lastShedLog = now;
          log.error({ shed: counts.shed, queueLimit }, 'click writer: queue full, clicks are being shed');
        }
        return;
      }
      let filling = queue[queue.length - 1];
      if (!filling || filling.full) queue.push((filling = pool.take()));
      filling.append(visit);
      queueCount += 1;
      counts.accepted += 1;
      if (filling.full) setImmediate(tick);
    },

    async flush() {
      while (queued() > 0) {
        if (!(await step())) throw new Error('click writer: the database is unavailable');
      }
    },

    async close() {
      clearInterval(timer);
      const started = Date.now();
      const writtenBefore = counts.written;
      const deadline = started + DRAIN_LIMIT_MS;
      while (queued() > 0 && Date.now() < deadline) {
        if (!(await step())) await new Promise((resolve) => setTimeout(resolve, Math.min(backoffMs, deadline - Date.now())));
      }
      // The operator's proof that a stop lost nothing: what the drain wrote, and in how long.
      const drain = { drained: counts.written - writtenBefore, written: counts.written, ms: Date.now() - started };
      if (queued() > 0) log.error({ ...drain, lost: queued() }, 'click writer: stopped with clicks the database never took');
      else log.info(drain, 'click writer: drained, every queued click written');
      await sink.close();
    },

    stats: () => {
      const oldest = [pending[0]?.batch.oldestAt, queue[0]?.oldestAt].filter((at): at is number => at !== undefined);
      return { queued: queued(), ...counts, oldestQueuedAt: oldest.length > 0 ? Math.min(...oldest) : undefined };
    },
  };
}
