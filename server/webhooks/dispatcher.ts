import {
  WEBHOOK_DELIVERIES_SHOWN,
  WEBHOOK_DISABLE_AFTER_FAILURES,
  WEBHOOK_IN_FLIGHT_MAX,
  WEBHOOK_PROBE_DELAYS_MS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_TIMEOUT_MS,
  webhookMessages as m,
} from '@common/webhooks/webhook-messages';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/database';
import type { Mailer } from '../mail/mailer';
import { webhookDisabledMail } from '../mail/webhook-disabled-mail';
import { type DeliveryAttempt, attemptDelivery, messageIdOf } from './delivery';
import { expandClickBatch } from './outbox';
import type { DeliveryAgents } from './safe-agent';
import type { EnabledWebhook, WebhookSubscriptions } from './subscriptions';

// Sends what the outbox holds, making a click batch's deliveries (outbox.ts) once those before are
// sent or waiting for a retry. Per enabled webhook, one loop at a time on this instance: it claims
// a batch of due rows in one statement (PostgreSQL: FOR UPDATE SKIP LOCKED, so instances
// never claim the same row; the claim is a lease in locked_until, so rows of an instance that died
// are claimed again once it ends), sends them WEBHOOK_IN_FLIGHT_MAX at a time, and writes their
// outcomes in one statement. Only the rows being sent are in memory: a slow receiver's backlog
// waits in the table. Unsent rows are handed back before their lease could end.

// Rows claimed at once: from CLAIM_MIN, doubled after each batch that all went through, up to
// CLAIM_MAX (fewer statements for a receiver that keeps up, whose writes on SQLite share the click
// writer's lock), back to CLAIM_MIN after any failure (a failing receiver's rows stay in the table).
const CLAIM_MIN = 20;
const CLAIM_MAX = 500;
/**
 * Event-loop utilisation, seen while the dispatcher waits, above which it yields the loop to
 * redirects. A loop serving all the redirects its clients send is not always near 1: between their
 * bursts it waits for them (a load generator sharing the machine, clients on the network), and a
 * 10 ms look read 0.55-0.8 of such a loop as often as not.
 */
const BUSY_LOOP = 0.5;
/** How long it waits after a batch to see how busy the loop is without it... */
const PROBE_MS = 10;
/** ...and this long when the first look is neither clearly idle nor clearly busy. */
const LONG_PROBE_MS = 100;
const CLEARLY_IDLE = 0.2;
const CLEARLY_BUSY = 0.8;
/** While others keep the loop busy, the share of it deliveries may take (the rest waits in the outbox). */
const BACKGROUND_SHARE = 0.02;
/** The longest pause after one batch, in the loop's working time: a backlog still moves. */
const MAX_PAUSE_MS = 5000;
/** How often a pause looks whether the loop is still busy. */
const RECHECK_BUSY_MS = 500;
/** How long a stop lets deliveries in flight finish before cutting them. */
const STOP_GRACE_MS = 2000;
/** How often a webhook's delivered and failed rows past its last WEBHOOK_DELIVERIES_SHOWN are deleted. */
export const PRUNE_EVERY_MS = 5_000;
/** How often the due rows behind a webhook's claim cursor are looked for (the first retry waits 5 s). */
const SWEEP_EVERY_MS = 5_000;

export interface DeliveryOutcome {
  id: number;
  event: string;
  attempt: DeliveryAttempt;
  /** The row's attempts before this one. */
  attemptsBefore: number;
}

export interface WebhookDispatcher {
  start(): void;
  /** Something was written to the outbox here: look now rather than at the next poll. */
  wake(): void;
  /** The test button's ping, already inserted and leased by the request: sent now, its outcome written. */
  sendClaimed(webhook: { id: number; url: string; secret: string }, deliveryId: number): Promise<void>;
  /** Someone asked for a delivery now (the retry button, the webhook changed): if it was backing off, it tries at once. */
  resume(webhookId: number): void;
  stop(): Promise<void>;
}

export interface DispatcherOptions {
  database: DatabaseHandle;
  subscriptions: WebhookSubscriptions;
  agents: DeliveryAgents;
  log: FastifyBaseLogger;
  mailer: Mailer | undefined;
  publicBaseUrl: string;
  /** How long claimed rows are this instance's (WEBHOOK_LEASE_SECONDS): a crashed one's are sent by another after it. */
  leaseMs: number;
  /** How often the outbox is looked at when nothing wakes the dispatcher. */
  pollMs?: number;
}

interface ClaimedRow {
  id: number;
  event: string;
  payload: string;
  attempts: number;
}

/** A webhook whose receiver failed: nothing is sent before `until`, then one delivery as a probe. */
interface Backoff {
  until: number;
  /** Rounds in a row that failed: the pause after the nth is WEBHOOK_PROBE_DELAYS_MS[n - 1] (the last one after that). */
  failedRounds: number;
}

/** What an attempt leaves in the row: delivered, waiting for the next retry, or failed for good. */
function rowAfter({ event, attempt, attemptsBefore }: DeliveryOutcome, now: number) {
  if (attempt.ok) return { status: 'delivered', next: null };
  const delay = event === 'ping' ? undefined : WEBHOOK_RETRY_DELAYS_MS[attemptsBefore];
  return delay === undefined ? { status: 'failed', next: null } : { status: 'pending', next: now + delay };
}

export function createWebhookDispatcher({ database, subscriptions, agents, log, mailer, publicBaseUrl, leaseMs, pollMs = 1000 }: DispatcherOptions): WebhookDispatcher {
  // No send starts this close to the end of a lease: it ends (timeout included) before another may claim the row.
  const leaseMargin = Math.min(WEBHOOK_TIMEOUT_MS * 2, leaseMs / 2);
  const { db } = database;
  const postgres = database.dialect === 'postgres';
  const running = new Map<number, Promise<void>>();
  const wokenWhileRunning = new Set<number>();
  const lastPruned = new Map<number, number>();
  // A receiver that is down or failing is not sent every event as it comes: after a failed round,
  // the webhook pauses (WEBHOOK_PROBE_DELAYS_MS: 5 s, 1 min... then hourly), then sends one
  // delivery; its success resumes the rest. Its events wait in the outbox meanwhile, and the
  // failures in a row that disable it take half a day of probes, not a burst of clicks.
  const backoff = new Map<number, Backoff>();
  // Webhooks this process has looked at once: one that was failing when it started (an instance
  // restarted, or another one's failures) begins with a probe, not a full round.
  const failingChecked = new Set<number>();

  async function heldBack(webhookId: number): Promise<Backoff | undefined> {
    if (!backoff.has(webhookId) && !failingChecked.has(webhookId)) {
      failingChecked.add(webhookId);
      const row = await db.selectFrom('webhooks').select('failures_in_a_row').where('id', '=', webhookId).executeTakeFirst();
      if (row && row.failures_in_a_row > 0) backoff.set(webhookId, { until: 0, failedRounds: 0 });
    }
    return backoff.get(webhookId);
  }
  // closing: no new send starts; stopping: those in flight are cut.
  let closing = false;
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let scheduled = false;

  // Where the next claim starts, per webhook: past the last row this process claimed. The due rows
  // behind it (a retry's time come, a row handed back, a dead instance's lease ended, a row whose
  // transaction committed after one with a later id) are claimed by a sweep from the start, at
  // most every SWEEP_EVERY_MS. The deliveries' table is a queue:
  // each row is inserted, claimed, updated and deleted, and on PostgreSQL every step leaves a dead
  // row version in the indexes until a vacuum. A claim from the start walked every one of them
  // (736,633 entries, 130-340 ms, with autovacuum off); one past the cursor reads only new rows.
  const cursors = new Map<number, number>();
  const lastSwept = new Map<number, number>();

  async function claim(webhookId: number, size: number): Promise<{ rows: ClaimedRow[]; leaseEnds: number }> {
    const now = Date.now();
    const sweep = now - (lastSwept.get(webhookId) ?? 0) >= SWEEP_EVERY_MS;
    if (sweep) lastSwept.set(webhookId, now);
    let cursor = cursors.get(webhookId) ?? 0;
    const leaseEnds = now + leaseMs;
    // Past the cursor, the next rows by id alone (the index on webhook_id, id): asked together
    // with the due conditions, PostgreSQL chose the due index and walked its dead entries anyway.
    let ahead: number[] = [];
    if (!sweep) {
      const next = await db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', webhookId).where('id', '>', cursor).orderBy('id').limit(size).execute();
      if (next.length === 0) return { rows: [], leaseEnds };
      ahead = next.map((row) => Number(row.id));
    }
    const due = db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', webhookId)
      .$if(!sweep, (query) => query.where('id', 'in', ahead))
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .orderBy('id')
      .limit(size)
      .$if(postgres, (query) => query.forUpdate().skipLocked());
    const rows = await db
      .updateTable('webhook_deliveries')
      .set({ locked_until: leaseEnds })
      .where('id', 'in', due)
      .returning(['id', 'event', 'payload', 'attempts'])
      .execute();
    const claimed = rows.map((row) => ({ ...row, id: Number(row.id) })).sort((a, b) => a.id - b.id);
    // Each row up to there was claimed, here or by another instance, or is not due (delivered, a
    // retry to come, another's lease): those that become due are the sweep's.
    cursor = Math.max(cursor, ahead.at(-1) ?? 0, claimed.at(-1)?.id ?? 0);
    cursors.set(webhookId, cursor);
    return { rows: claimed, leaseEnds };
  }

  // On PostgreSQL, the dispatcher's writes skip a row another statement holds instead of waiting for
  // it. A webhook or workspace being deleted holds its rows while it cascades; waiting for each
  // other in turn ended in a deadlock, and the deleter got a 500. A skipped row is one being
  // deleted, or one whose lease ended and was claimed again (sent once more, as after a crash).
  const unheld = (ids: number[]) =>
    db.selectFrom('webhook_deliveries').select('id').where('id', 'in', ids).$if(postgres, (query) => query.forUpdate().skipLocked());

  async function release(ids: number[]): Promise<void> {
    if (ids.length > 0) await db.updateTable('webhook_deliveries').set({ locked_until: null }).where('id', 'in', unheld(ids)).execute();
  }

  /**
   * Every outcome in one statement. PostgreSQL reads them as one array per column: as 500 rows of
   * `select ... union all`, planning the statement took most of its 630 ms (12 ms this way).
   */
  async function writeOutcomes(outcomes: DeliveryOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const now = Date.now();
    const rows = outcomes.map((outcome) => ({ outcome, ...rowAfter(outcome, now) }));
    const ids = outcomes.map((outcome) => outcome.id);
    const set = sql`status = v.status, attempts = webhook_deliveries.attempts + 1, response_status = v.response_status,
      duration_ms = v.duration_ms, next_attempt_at = v.next_attempt_at, error = v.error, locked_until = null`;
    if (postgres) {
      await sql`update webhook_deliveries set ${set}
        from unnest(${ids}::bigint[], ${rows.map((row) => row.status)}::text[], ${rows.map((row) => row.outcome.attempt.status)}::integer[],
          ${rows.map((row) => row.outcome.attempt.durationMs)}::integer[], ${rows.map((row) => row.next)}::bigint[],
          ${rows.map((row) => row.outcome.attempt.error)}::text[]) as v(id, status, response_status, duration_ms, next_attempt_at, error)
        where webhook_deliveries.id = v.id and webhook_deliveries.id in (${unheld(ids)})`.execute(db);
      return;
    }
    const values = sql.join(
      rows.map(({ outcome: { id, attempt }, status, next }) => sql`select cast(${id} as bigint) as id, cast(${status} as text) as status,
          cast(${attempt.status} as integer) as response_status, cast(${attempt.durationMs} as integer) as duration_ms,
          cast(${next} as bigint) as next_attempt_at, cast(${attempt.error} as text) as error`),
      sql` union all `,
    );
    await sql`update webhook_deliveries set ${set} from (${values}) as v where webhook_deliveries.id = v.id and webhook_deliveries.id in (${unheld(ids)})`.execute(db);
  }

  /** Failures in a row: reset by a success, counted otherwise; the 20th disables the webhook. */
  async function countFailures(webhook: EnabledWebhook, outcomes: DeliveryOutcome[]): Promise<void> {
    const counted = outcomes.filter((outcome) => outcome.event !== 'ping');
    if (counted.length === 0) return;
    const lastSuccess = counted.findLastIndex((outcome) => outcome.attempt.ok);
    const failuresAfter = counted.length - 1 - lastSuccess;
    if (lastSuccess >= 0 && failuresAfter === 0) {
      await db.updateTable('webhooks').set({ failures_in_a_row: 0 }).where('id', '=', webhook.id).where('failures_in_a_row', '>', 0).execute();
      return;
    }
    const row = await db
      .updateTable('webhooks')
      .set((eb) => ({ failures_in_a_row: lastSuccess >= 0 ? failuresAfter : eb('failures_in_a_row', '+', failuresAfter) }))
      .where('id', '=', webhook.id)
      .returning('failures_in_a_row')
      .executeTakeFirst();
    if (!row || row.failures_in_a_row < WEBHOOK_DISABLE_AFTER_FAILURES) return;
    const disabled = await db
      .updateTable('webhooks')
      .set({ enabled: 0, disabled_reason: m.disabledAfterFailures })
      .where('id', '=', webhook.id)
      .where('enabled', '=', 1)
      .returning('id')
      .executeTakeFirst();
    if (!disabled) return; // another instance got there first
    log.warn({ webhookId: webhook.id, workspaceId: webhook.workspaceId }, 'webhook disabled after failing deliveries');
    await subscriptions.changed();
    await tellAdmins(webhook).catch((error: unknown) => log.warn({ err: error, webhookId: webhook.id }, 'could not mail a disabled webhook to its admins'));
  }

  async function tellAdmins(webhook: EnabledWebhook): Promise<void> {
    if (!mailer) return;
    const admins = await db
      .selectFrom('workspace_members')
      .innerJoin('users', 'users.id', 'workspace_members.user_id')
      .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
      .select(['users.email', 'users.name', 'workspaces.name as workspaceName', 'workspaces.slug', 'workspaces.personal_user_id'])
      .where('workspace_members.workspace_id', '=', webhook.workspaceId)
      .where('workspace_members.role', 'in', ['owner', 'admin'])
      .execute();
    const base = publicBaseUrl.replace(/\/+$/, '');
    for (const admin of admins) {
      // The web app's addresses: a personal workspace's webhooks under /cuenta, a team's under /w/{slug}.
      const settingsUrl = admin.personal_user_id === null ? `${base}/w/${encodeURIComponent(admin.slug)}/webhooks` : `${base}/cuenta/webhooks`;
      await mailer.send(
        webhookDisabledMail({ to: admin.email, name: admin.name, workspaceName: admin.workspaceName, webhookUrl: webhook.url, reason: m.disabledAfterFailures, settingsUrl }),
      );
    }
  }

  async function prune(webhookId: number): Promise<void> {
    const now = Date.now();
    if (now - (lastPruned.get(webhookId) ?? 0) < PRUNE_EVERY_MS) return;
    lastPruned.set(webhookId, now);
    const newest = db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', webhookId)
      .orderBy('id', 'desc')
      .limit(1)
      .offset(WEBHOOK_DELIVERIES_SHOWN - 1);
    const old = db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', webhookId)
      .where('status', 'in', ['delivered', 'failed'])
      .where('id', '<', newest)
      .$if(postgres, (query) => query.forUpdate().skipLocked());
    await db.deleteFrom('webhook_deliveries').where('id', 'in', old).execute();
  }

  /**
   * Sends claimed rows WEBHOOK_IN_FLIGHT_MAX at a time; hands back what it could not start in time,
   * and what it did not start once one failed. Says whether every row was delivered, and whether
   * any failed.
   */
  async function sendRows(webhook: EnabledWebhook, rows: ClaimedRow[], leaseEnds: number): Promise<{ allDelivered: boolean; failed: boolean }> {
    const outcomes: DeliveryOutcome[] = [];
    const unsent: number[] = [];
    let failed = false;
    let next = 0;
    const lane = async () => {
      for (;;) {
        const row = rows[next++];
        if (!row) return;
        if (closing || failed || Date.now() > leaseEnds - leaseMargin || !subscriptions.isEnabled(webhook.id)) {
          unsent.push(row.id);
          continue;
        }
        const attempt = await attemptDelivery(agents, { url: webhook.url, secret: webhook.secret, messageId: messageIdOf(row.id), payload: row.payload }, stopping.signal);
        // Cut short by the stop, not failed by the receiver: sent again by whoever claims it next.
        if (stopping.signal.aborted && !attempt.ok) unsent.push(row.id);
        else {
          outcomes.push({ id: row.id, event: row.event, attempt, attemptsBefore: row.attempts });
          if (!attempt.ok) failed = true;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(WEBHOOK_IN_FLIGHT_MAX, rows.length) }, lane));
    await writeOutcomes(outcomes);
    await release(unsent);
    await countFailures(webhook, outcomes);
    await prune(webhook.id);
    return { allDelivered: unsent.length === 0 && !failed, failed };
  }

  function backOff(webhookId: number): void {
    const failedRounds = (backoff.get(webhookId)?.failedRounds ?? 0) + 1;
    const pause = WEBHOOK_PROBE_DELAYS_MS[Math.min(failedRounds, WEBHOOK_PROBE_DELAYS_MS.length) - 1]!;
    backoff.set(webhookId, { until: Date.now() + pause, failedRounds });
  }

  /** Whether others (redirects, the API) keep the loop busy: its use over a short look (longer when unclear) while the dispatcher does nothing. */
  async function loopBusy(): Promise<boolean> {
    const before = performance.eventLoopUtilization();
    await pause(PROBE_MS);
    // An idle server drains at once; a short look at a loaded one is too noisy to say it is not.
    const first = performance.eventLoopUtilization(before).utilization;
    if (first < CLEARLY_IDLE || first > CLEARLY_BUSY) return first > CLEARLY_BUSY;
    await pause(LONG_PROBE_MS - PROBE_MS);
    return performance.eventLoopUtilization(before).utilization > BUSY_LOOP;
  }

  /**
   * Deliveries are background work: a backlog sent as fast as the loop allows would take it from
   * redirects. After each batch, if others keep the loop busy, a pause until the loop has worked
   * (1 / BACKGROUND_SHARE - 1) times the batch's time, so that deliveries take at most
   * BACKGROUND_SHARE of it; the pause ends early once the load eases, and an idle server drains its
   * outbox at full speed. The loop's working time, not the clock's: a process that does not run
   * meanwhile (stopped, or its VM's core taken) owes the same, where a pause by the clock would have
   * ended while it could not serve a redirect, and deliveries would take more than their share of
   * the time it does. Returns whether the loop was still busy at the end (then the next batch is small).
   */
  async function yieldToRedirects(batchMs: number): Promise<boolean> {
    if (!(await loopBusy())) return false;
    const owed = Math.min(MAX_PAUSE_MS, batchMs * (1 / BACKGROUND_SHARE - 1));
    const start = performance.eventLoopUtilization();
    for (;;) {
      const left = owed - performance.eventLoopUtilization(start).active;
      if (left <= 0 || closing) return true;
      await pause(Math.min(left, RECHECK_BUSY_MS));
      if (!(await loopBusy())) return false;
    }
  }

  const pause = (ms: number) => sleep(ms, undefined, { ref: false, signal: stopping.signal }).catch(() => {});

  async function drain(webhook: EnabledWebhook): Promise<void> {
    let size = CLAIM_MIN;
    // While redirects keep the loop busy, small batches: each pause stays in proportion (MAX_PAUSE_MS).
    let busy = false;
    do {
      wokenWhileRunning.delete(webhook.id);
      for (;;) {
        if (closing || !subscriptions.isEnabled(webhook.id)) return;
        const held = await heldBack(webhook.id);
        if (held && Date.now() < held.until) return; // looked at again by the poll once the pause ends
        const started = performance.now();
        const { rows, leaseEnds } = await claim(webhook.id, held ? 1 : busy ? CLAIM_MIN : size);
        if (rows.length === 0) {
          // Nothing due: the next click batch becomes deliveries (counted as work, so it yields as well).
          if ((await expandClickBatch(db, webhook.id)) === 0) break;
          busy = await yieldToRedirects(performance.now() - started);
          continue;
        }
        const sent = await sendRows(webhook, rows, leaseEnds);
        if (sent.failed) return backOff(webhook.id);
        if (sent.allDelivered) backoff.delete(webhook.id);
        size = sent.allDelivered ? Math.min(size * 2, CLAIM_MAX) : CLAIM_MIN;
        busy = await yieldToRedirects(performance.now() - started);
      }
    } while (wokenWhileRunning.has(webhook.id));
  }

  function tick() {
    scheduled = false;
    if (closing) return;
    for (const webhook of subscriptions.enabled()) {
      if (running.has(webhook.id)) {
        wokenWhileRunning.add(webhook.id);
        continue;
      }
      const run = drain(webhook)
        .catch((error: unknown) => log.warn({ err: error, webhookId: webhook.id }, 'webhooks: delivery round failed; tried again at the next poll'))
        .finally(() => running.delete(webhook.id));
      running.set(webhook.id, run);
    }
  }

  function wake() {
    if (scheduled || closing || !timer) return;
    scheduled = true;
    setImmediate(tick);
  }

  return {
    start() {
      if (timer) return;
      timer = setInterval(tick, pollMs);
      timer.unref();
      subscriptions.onReload(wake);
      wake();
    },
    wake,
    async sendClaimed(webhook, deliveryId) {
      const row = await db.selectFrom('webhook_deliveries').select(['payload', 'attempts', 'event']).where('id', '=', deliveryId).executeTakeFirstOrThrow();
      const attempt = await attemptDelivery(agents, { url: webhook.url, secret: webhook.secret, messageId: messageIdOf(deliveryId), payload: row.payload });
      await writeOutcomes([{ id: deliveryId, event: row.event, attempt, attemptsBefore: row.attempts }]);
      await prune(webhook.id);
      // The receiver answers again: what waited goes now.
      if (attempt.ok && backoff.delete(webhook.id)) wake();
    },
    resume(webhookId) {
      backoff.delete(webhookId);
      lastSwept.delete(webhookId); // the row asked for may be behind the cursor
      wake();
    },
    async stop() {
      closing = true;
      clearInterval(timer);
      // Deliveries in flight get a moment to be answered (cut, they would be sent again later).
      const finished = Promise.all(running.values());
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([finished, new Promise((resolve) => (grace = setTimeout(resolve, STOP_GRACE_MS)))]);
      clearTimeout(grace);
      stopping.abort();
      await finished;
    },
  };
}
