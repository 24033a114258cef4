// Redirects of a link whose clicks a webhook wants (link.clicked, a receiver answering at once),
// against the same redirects without any webhook: requests per second of each and their ratio,
// then a check that every click the database counted reached the receiver once. Rounds alternate
// the two, each on a server process of its own database. SQLite always; PostgreSQL too with
// BENCH_DATABASE_URL (or TEST_DATABASE_URL). BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONNECTIONS.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DatabaseHandle, openDatabase } from '../server/db/database';
import { benchDatabases, type BenchDatabase } from './lib/bench-database';
import { load, loadGenerator } from './lib/load';
import { startNode } from './lib/processes';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const serverEnv = { LOG_LEVEL: 'warn', REDIRECT_MISS_LIMIT: '0', ALLOW_PRIVATE_DESTINATIONS: 'true' };

// The receiver: answers 200 at once and counts each webhook-id it gets.
const ids = new Set<string>();
let repeats = 0;
const receiver = createServer((request, response) => {
  const id = String(request.headers['webhook-id']);
  if (ids.has(id)) repeats += 1;
  ids.add(id);
  request.resume();
  request.on('end', () => response.end('ok'));
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/corto`;

function handleOf(database: BenchDatabase): DatabaseHandle {
  return database.env.DATABASE_URL ? openDatabase({ kind: 'postgres', url: database.env.DATABASE_URL }) : openDatabase({ kind: 'sqlite', dataDir: database.env.DATA_DIR! });
}

/** A webhook of the link's workspace that wants its clicks only, written before its server starts. */
async function subscribe(database: BenchDatabase): Promise<void> {
  const handle = handleOf(database);
  try {
    const { db } = handle;
    const { workspace_id } = await db.selectFrom('urls').select('workspace_id').where('id', '=', database.link.id).executeTakeFirstOrThrow();
    const row = await db
      .insertInto('webhooks')
      .values({ workspace_id, url: receiverUrl, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', events: '["link.clicked"]', filtered: 1, enabled: 1, disabled_reason: null, created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('webhook_links').values({ webhook_id: row.id, url_id: database.link.id }).execute();
  } finally {
    await handle.close();
  }
}

async function round(database: BenchDatabase): Promise<number> {
  const server = await startNode('server/main.ts', { ...serverEnv, ...database.env }, '/api/health');
  try {
    const result = await load(`http://127.0.0.1:${server.port}/${database.link.shortUrl}`, CONNECTIONS, SECONDS);
    return result.rps;
  } finally {
    await server.stop('SIGTERM');
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

console.log(`webhooks: ${ROUNDS} rounds of ${SECONDS} s each, ${CONNECTIONS} connections (${loadGenerator})`);
for (const [dialect, make] of benchDatabases(pgUrl)) {
  const plain = await make();
  const watched = await make();
  await subscribe(watched);
  ids.clear();
  repeats = 0;
  const rps = { plain: [] as number[], webhook: [] as number[] };
  try {
    // Pairs in turn plain-first and webhook-first: neither side always runs on a machine just warmed by the other.
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) {
        rps.plain.push(await round(plain));
        rps.webhook.push(await round(watched));
      } else {
        rps.webhook.push(await round(watched));
        rps.plain.push(await round(plain));
      }
    }
    // The last round's deliveries may still be in the outbox: a server of its own sends them.
    const sender = await startNode('server/main.ts', { ...serverEnv, ...watched.env }, '/api/health');
    const clicks = await watched.clickCount();
    // Deliveries waited in the outbox while redirects kept the loop busy: the drain takes as long as
    // it takes, and is given up only when it stops moving for 15 s.
    const drainStarted = Date.now();
    let lastProgress = Date.now();
    let seen = ids.size;
    while (ids.size < clicks && Date.now() - lastProgress < 15_000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (ids.size > seen) [seen, lastProgress] = [ids.size, Date.now()];
    }
    const drainSeconds = (Date.now() - drainStarted) / 1000;
    await sender.stop('SIGTERM');
    const fmt = (n: number) => n.toFixed(0).padStart(7);
    console.log(`${dialect}: requests/s, median of ${ROUNDS}`);
    console.log(`  without a webhook       ${fmt(median(rps.plain))}   (${rps.plain.map((n) => n.toFixed(0)).join(', ')})`);
    console.log(`  link.clicked webhook    ${fmt(median(rps.webhook))}   (${rps.webhook.map((n) => n.toFixed(0)).join(', ')})`);
    const pairs = rps.webhook.map((n, i) => n / rps.plain[i]!);
    console.log(`  ratio (with / without): ${(median(rps.webhook) / median(rps.plain)).toFixed(2)}; each pair's ${median(pairs).toFixed(2)} median (${pairs.map((r) => r.toFixed(2)).join(', ')})`);
    console.log(`  clicks counted ${clicks}, delivered ${ids.size}, repeats ${repeats}, the rest drained in ${drainSeconds.toFixed(0)} s after the load: ${ids.size === clicks ? 'every click reached the receiver' : 'MISSING DELIVERIES'}`);
    if (ids.size !== clicks) process.exitCode = 1;
  } finally {
    await plain.drop();
    await watched.drop();
  }
}
receiver.close();
