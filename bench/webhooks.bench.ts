// Redirects of a link whose clicks a webhook wants (link.clicked, a receiver answering at once),
// against the same redirects without any webhook: requests per second of each and their ratio,
// then a check that every click the database counted reached the receiver once. Then the same with
// a receiver that is down (answering 503): redirects beside it, how few attempts reached it, and,
// once it is back, that every click still reaches it. Rounds alternate the two sides, each on a
// server process of its own database, the other side stopped meanwhile. SQLite always; PostgreSQL
// too with BENCH_DATABASE_URL (or TEST_DATABASE_URL). BENCH_PAIRS, BENCH_PAIR_ROUNDS, BENCH_SECONDS,
// BENCH_CONNECTIONS.
// First, and before the rest, one process at a time with its webhook turned off and on through the
// API in alternated rounds: the same process on both sides, so its start's fast or slow state is too.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DatabaseHandle, openDatabase } from '../server/db/database';
import { benchDatabases, type BenchDatabase } from './lib/bench-database';
import { load, loadGenerator } from './lib/load';
import { cpuSeconds, median } from './lib/cpu-time';
import { type Started, startNode } from './lib/processes';
import { hashPassword } from '../server/auth/passwords';
import { sameOrigin } from '../server/test/test-users';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
const ROUNDS = Number(process.env.BENCH_PAIR_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
/** BENCH_WEBHOOKS_SAME_PROCESS_ONLY=1: only the first phase (the webhook on and off in one process), for a quick look. */
const SAME_PROCESS_ONLY = process.env.BENCH_WEBHOOKS_SAME_PROCESS_ONLY === '1';
const BENCH_PASSWORD = 'contraseña-del-banco';
const serverEnv = { LOG_LEVEL: 'warn', REDIRECT_MISS_LIMIT: '0', ALLOW_PRIVATE_DESTINATIONS: 'true' };

/** A receiver in this process: counts each webhook-id it accepted; while `down`, answers 503 and counts the attempts. */
async function startReceiver() {
  const state = { url: '', ids: new Set<string>(), repeats: 0, down: false, attemptsWhileDown: 0, close: () => server.close() };
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (state.down) {
        state.attemptsWhileDown += 1;
        response.writeHead(503).end();
        return;
      }
      const id = String(request.headers['webhook-id']);
      if (state.ids.has(id)) state.repeats += 1;
      state.ids.add(id);
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/corto`;
  return state;
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

function handleOf(database: BenchDatabase): DatabaseHandle {
  return database.env.DATABASE_URL ? openDatabase({ kind: 'postgres', url: database.env.DATABASE_URL }) : openDatabase({ kind: 'sqlite', dataDir: database.env.DATA_DIR! });
}

interface Subscription {
  webhookId: number;
  /** The workspace owner's e-mail address; their password is BENCH_PASSWORD. They may turn the webhook off and on. */
  email: string;
}

/** A webhook of the link's workspace that wants its clicks only, written before its server starts. */
async function subscribe(database: BenchDatabase, receiverUrl: string): Promise<Subscription> {
  const handle = handleOf(database);
  try {
    const { db } = handle;
    const { workspace_id, user_id } = await db.selectFrom('urls').select(['workspace_id', 'user_id']).where('id', '=', database.link.id).executeTakeFirstOrThrow();
    const row = await db
      .insertInto('webhooks')
      .values({ workspace_id, url: receiverUrl, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', events: '["link.clicked"]', filtered: 1, enabled: 1, disabled_reason: null, created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('webhook_links').values({ webhook_id: row.id, url_id: database.link.id }).execute();
    const owner = await db
      .updateTable('users')
      .set({ password_hash: await hashPassword(BENCH_PASSWORD) })
      .where('id', '=', user_id)
      .returning('email')
      .executeTakeFirstOrThrow();
    return { webhookId: Number(row.id), email: owner.email };
  } finally {
    await handle.close();
  }
}

interface Side {
  server: Started;
  url: string;
}

async function startSide(database: BenchDatabase): Promise<Side> {
  const server = await startNode('server/main.ts', { ...serverEnv, ...database.env }, '/api/health');
  return { server, url: `http://127.0.0.1:${server.port}/${database.link.shortUrl}` };
}

interface Measured {
  rps: number;
  /** The event loop's CPU per redirect (the main thread: what a delivery takes from redirects there). */
  loopUs: number;
}

/**
 * One side's round, the other side stopped (SIGSTOP) meanwhile: an idle server with a webhook
 * sends its backlog at full speed, which would slow the other side's round and flatter its own.
 */
async function measure(side: Side, other: Side): Promise<Measured> {
  return whileStopped(other, () => measureRound(side));
}

/** One round of load on `side`: its rate and its event loop's CPU per redirect. */
async function measureRound(side: Side): Promise<Measured> {
  const pid = side.server.child.pid;
  const before = cpuSeconds(pid, true);
  const result = await load(side.url, CONNECTIONS, SECONDS);
  return { rps: result.rps, loopUs: ((cpuSeconds(pid, true) - before) * 1e6) / result.requests };
}

/** `run` with `other`'s process stopped (SIGSTOP), continued afterwards whatever happened. */
async function whileStopped<T>(other: Side, run: () => Promise<T>): Promise<T> {
  other.server.child.kill('SIGSTOP');
  try {
    return await run();
  } finally {
    other.server.child.kill('SIGCONT');
  }
}

interface Comparison {
  plain: Measured[];
  webhook: Measured[];
}

/**
 * PAIRS pairs of fresh server processes (the same build served twice differs by up to a quarter
 * from one process to the other), each measured in ROUNDS alternated rounds after a warm-up; which
 * side starts and goes first alternates too.
 */
async function alternate(plain: BenchDatabase, watched: BenchDatabase): Promise<Comparison> {
  const measured: Comparison = { plain: [], webhook: [] };
  for (let pair = 0; pair < PAIRS; pair++) {
    const databases = pair % 2 === 0 ? [plain, watched] : [watched, plain];
    const started: Side[] = [];
    try {
      for (const database of databases) started.push(await startSide(database));
      const [plainSide, webhookSide] = databases[0] === plain ? [started[0]!, started[1]!] : [started[1]!, started[0]!];
      await warmUp(plainSide, webhookSide);
      for (let round = 0; round < ROUNDS; round++) {
        if ((round + pair) % 2 === 0) {
          measured.plain.push(await measure(plainSide, webhookSide));
          measured.webhook.push(await measure(webhookSide, plainSide));
        } else {
          measured.webhook.push(await measure(webhookSide, plainSide));
          measured.plain.push(await measure(plainSide, webhookSide));
        }
      }
    } finally {
      await Promise.all(started.map((side) => side.server.stop('SIGTERM')));
    }
  }
  return measured;
}

/** JIT and caches warmed on both sides, each alone. */
async function warmUp(a: Side, b: Side): Promise<void> {
  for (const [side, other] of [[a, b], [b, a]] as const) await whileStopped(other, () => load(side.url, CONNECTIONS, 2));
}

/** The workspace owner's session on this server (the webhooks' routes are the web app's: no API token). */
async function signIn(side: Side, { email }: Subscription): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${side.server.port}/api/auth/login`, {
    method: 'POST',
    headers: { ...sameOrigin, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  if (!response.ok) throw new Error(`POST /api/auth/login: ${response.status} ${await response.text()}`);
  return response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ');
}

/** The webhook turned off or on through the API, as its workspace's owner would. */
async function setEnabled(side: Side, cookie: string, { webhookId }: Subscription, enabled: boolean): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${side.server.port}/api/webhooks/${webhookId}`, {
    method: 'PATCH',
    headers: { cookie, ...sameOrigin, 'content-type': 'application/json' },
    body: JSON.stringify({ enabled }),
  });
  if (!response.ok) throw new Error(`PATCH /api/webhooks/${webhookId}: ${response.status} ${await response.text()}`);
}

/**
 * One server process, its link's webhook on in one round and off in the next (PAIRS processes,
 * ROUNDS rounds of each): a fresh process runs in a fast or a slow state, steady within it, and
 * between two processes that state moves the rate by more than the webhook does. While off, its
 * clicks are not announced and its dispatcher sends nothing: the cost measured is the webhook's
 * whole (outbox writes and deliveries, the backlog of the rounds before included).
 */
async function toggle(database: BenchDatabase, subscription: Subscription): Promise<Comparison> {
  const measured: Comparison = { plain: [], webhook: [] };
  for (let pair = 0; pair < PAIRS; pair++) {
    const side = await startSide(database);
    try {
      const cookie = await signIn(side, subscription);
      await load(side.url, CONNECTIONS, 2);
      for (let round = 0; round < ROUNDS * 2; round++) {
        const enabled = (round + pair) % 2 === 0;
        await setEnabled(side, cookie, subscription, enabled);
        (enabled ? measured.webhook : measured.plain).push(await measureRound(side));
      }
      await setEnabled(side, cookie, subscription, true);
    } finally {
      await side.server.stop('SIGTERM');
    }
  }
  return measured;
}

const fmt = (n: number) => n.toFixed(0).padStart(7);
const spread = (values: number[]) => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;

function report(label: string, { plain, webhook }: Comparison, plainLabel = 'without a webhook'): void {
  const rps = (side: Measured[]) => side.map((m) => m.rps);
  console.log(`  ${plainLabel.padEnd(22)}  ${fmt(median(rps(plain)))}   (${rps(plain).map((n) => n.toFixed(0)).join(', ')})`);
  console.log(`  ${label.padEnd(22)}  ${fmt(median(rps(webhook)))}   (${rps(webhook).map((n) => n.toFixed(0)).join(', ')})`);
  const throughput = webhook.map((m, i) => m.rps / plain[i]!.rps);
  const loop = webhook.map((m, i) => m.loopUs / plain[i]!.loopUs);
  console.log(`  with / without, by round: throughput ${median(throughput).toFixed(2)} median (${throughput.map((r) => r.toFixed(2)).join(', ')})`);
  console.log(`  event loop CPU per redirect, with / without: ${median(loop).toFixed(2)} median (rounds ${spread(loop)}); 1.00 = the same`);
}

/** What the outbox still holds, sent by a server of its own: seconds until every counted click reached the receiver, or it stopped moving for 15 s. */
async function drain(watched: BenchDatabase, receiver: Receiver): Promise<{ clicks: number; seconds: number }> {
  const sender = await startNode('server/main.ts', { ...serverEnv, ...watched.env }, '/api/health');
  const clicks = await watched.clickCount();
  const started = Date.now();
  let lastProgress = Date.now();
  let seen = receiver.ids.size;
  while (receiver.ids.size < clicks && Date.now() - lastProgress < 15_000) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (receiver.ids.size > seen) [seen, lastProgress] = [receiver.ids.size, Date.now()];
  }
  const seconds = (Date.now() - started) / 1000;
  await sender.stop('SIGTERM');
  return { clicks, seconds };
}

function delivered(receiver: Receiver, { clicks, seconds }: { clicks: number; seconds: number }, after: string): void {
  const whole = receiver.ids.size === clicks;
  console.log(
    `  clicks counted ${clicks}, delivered ${receiver.ids.size}, repeats ${receiver.repeats}, the rest drained in ${seconds.toFixed(0)} s ${after}: ${whole ? 'every click reached the receiver' : 'MISSING DELIVERIES'}`,
  );
  if (!whole) process.exitCode = 1;
}

console.log(`webhooks: ${PAIRS} pairs of fresh processes, ${ROUNDS} alternated rounds of ${SECONDS} s each, ${CONNECTIONS} connections (${loadGenerator})`);
for (const [dialect, make] of benchDatabases(pgUrl)) {
  const plain = await make();
  const watched = await make();
  const broken = await make();
  const toggled = await make();
  const up = await startReceiver();
  const down = await startReceiver();
  const toggledReceiver = await startReceiver();
  try {
    const toggledSubscription = await subscribe(toggled, toggledReceiver.url);
    console.log(`${dialect}: requests/s, median of ${PAIRS * ROUNDS} rounds of each, one process at a time, its webhook on and off in turn`);
    report('webhook on', await toggle(toggled, toggledSubscription), 'webhook off');
    console.log(`  delivered during the rounds: ${toggledReceiver.ids.size}, repeats ${toggledReceiver.repeats}`);
    if (SAME_PROCESS_ONLY) continue;

    await subscribe(watched, up.url);
    await subscribe(broken, down.url);
    console.log(`${dialect}: requests/s, median of ${PAIRS * ROUNDS} rounds, a receiver answering at once`);
    report('link.clicked webhook', await alternate(plain, watched));
    console.log(`  delivered during the rounds: ${up.ids.size} of ${await watched.clickCount()} clicks (the rest waits while redirects keep the loop busy)`);
    // The last round's deliveries may still be in the outbox, waiting while redirects kept the loop busy.
    delivered(up, await drain(watched, up), 'after the load');

    down.down = true;
    console.log(`${dialect}: requests/s, median of ${PAIRS * ROUNDS} rounds, a receiver that is down (503)`);
    report('webhook, receiver down', await alternate(plain, broken));
    const downClicks = await broken.clickCount();
    console.log(`  attempts that reached the receiver while down: ${down.attemptsWhileDown} for ${downClicks} clicks (each server process pauses after its first failed round)`);
    down.down = false;
    delivered(down, await drain(broken, down), 'once it was back');
  } finally {
    up.close();
    down.close();
    toggledReceiver.close();
    await toggled.drop();
    await plain.drop();
    await watched.drop();
    await broken.drop();
  }
}
