// `corto prune` of BENCH_PRUNE_CLICKS (10,000,000) raw clicks past their retention, run as an
// operator runs it (its own process, from cron) while a server on the same database answers
// redirects: how long it takes, and what the redirects feel meanwhile (p99, the slowest answer, the
// server's longest event-loop stall from its /metrics) against the same load with no prune, in the
// same run (before and after it). Target (issue 36): no stall over 50 ms, the p99 unchanged. Then the exact check: every
// click recorded during the run is kept, and none past the retention is. SQLite always;
// PostgreSQL too with BENCH_DATABASE_URL (or TEST_DATABASE_URL); BENCH_DIALECT picks one.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../server/db/database';
import type { DialectName } from '../server/db/dialect';
import { type BenchDatabase, benchDatabases } from './lib/bench-database';
import { load, loadGenerator, type LoadResult, loadUntil } from './lib/load';
import { numberSeries } from './lib/number-series';
import { repoRoot, startNode } from './lib/processes';

const CLICKS = Number(process.env.BENCH_PRUNE_CLICKS ?? 10_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** CLICKS raw clicks of the bench's link, all from a year before the retention began (a year of traffic never pruned). */
async function seedOldClicks(database: BenchDatabase, dialect: DialectName) {
  const handle = openDatabase(dialect === 'sqlite' ? { kind: 'sqlite', dataDir: database.env.DATA_DIR! } : { kind: 'postgres', url: database.env.DATABASE_URL! });
  try {
    const newest = Date.now() - (RETENTION_DAYS + 1) * DAY_MS;
    const step = Math.max(1, Math.floor((365 * DAY_MS) / CLICKS));
    await sql`
      insert into clicks (url_id, created_at, city, country, device, browser, os, referrer, is_bot)
      select ${database.link.id}, cast(${newest} as bigint) - n * cast(${step} as bigint), 'Madrid', 'ES',
        case when n % 3 = 0 then 'mobile' else 'desktop' end, 'Chrome', 'Android', null, 0
      from (${numberSeries(dialect, CLICKS)}) as seq`.execute(handle.db);
    await sql`${sql.raw(dialect === 'postgres' ? 'vacuum analyze clicks' : 'analyze')}`.execute(handle.db);
    // The seed's WAL written back now, not by the server during the rounds without a prune.
    if (dialect === 'sqlite') await sql`pragma wal_checkpoint(truncate)`.execute(handle.db);
  } finally {
    await handle.close();
  }
}

/** The server's longest event-loop delay since the last read (prom-client resets it at each scrape), in ms. */
async function loopStallSinceLastRead(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const match = text.match(/^nodejs_eventloop_lag_max_seconds\s+([\d.e+-]+)$/m);
  if (!match) throw new Error('/metrics has no nodejs_eventloop_lag_max_seconds');
  return Number(match[1]) * 1000;
}

/** `corto prune` from source, as cron would run it, on the database the server uses. */
function prune(database: BenchDatabase): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'server/cli/corto.ts'), 'prune'], {
    cwd: repoRoot,
    env: { ...process.env, ...database.env, CLICK_RETENTION_DAYS: String(RETENTION_DAYS), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out: out.trim() })));
}

async function rawClicks(database: BenchDatabase, dialect: DialectName) {
  const handle = openDatabase(dialect === 'sqlite' ? { kind: 'sqlite', dataDir: database.env.DATA_DIR! } : { kind: 'postgres', url: database.env.DATABASE_URL! });
  try {
    const row = await handle.db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).where('url_id', '=', database.link.id).executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await handle.close();
  }
}

async function benchPrune(database: BenchDatabase, dialect: DialectName) {
  const seeding = performance.now();
  await seedOldClicks(database, dialect);
  console.log(`\n--- ${database.name}: ${CLICKS.toLocaleString('en')} raw clicks older than ${RETENTION_DAYS} days (seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s) ---`);
  const server = await startNode('server/main.ts', { ...database.env, LOG_LEVEL: 'warn', REDIRECT_MISS_LIMIT: '0' }, '/api/health');
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const redirectUrl = `${base}/${database.link.shortUrl}`;
    const countBefore = await database.clickCount();
    await load(redirectUrl, CONNECTIONS, 2); // warm-up

    // The load without a prune, before it and again after it (so drift on a shared machine weighs on both sides).
    const alone: LoadResult[] = [];
    const aloneStalls: number[] = [];
    const redirectsAlone = async () => {
      for (let round = 0; round < ROUNDS; round++) {
        await loopStallSinceLastRead(base);
        alone.push(await load(redirectUrl, CONNECTIONS, SECONDS));
        aloneStalls.push(await loopStallSinceLastRead(base));
      }
    };
    await redirectsAlone();

    await loopStallSinceLastRead(base);
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    let started!: () => void;
    const loadOn = new Promise<void>((resolve) => (started = resolve));
    const during = loadUntil(redirectUrl, CONNECTIONS, finished, started, SECONDS);
    await loadOn;
    const pruneStart = performance.now();
    const pruned = await prune(database);
    const pruneSeconds = (performance.now() - pruneStart) / 1000;
    finish();
    const windows = await during;
    const duringStall = await loopStallSinceLastRead(base);
    if (pruned.code !== 0) throw new Error(`prune exited with ${String(pruned.code)}: ${pruned.out}`);
    await redirectsAlone();

    const fmt = (n: number) => n.toFixed(1).padStart(7);
    const line = (results: LoadResult[]) =>
      `${median(results.map((r) => r.rps)).toFixed(0).padStart(6)} req/s   p99 ${fmt(median(results.map((r) => r.p99ms)))} ms (windows ${results.map((r) => r.p99ms.toFixed(1)).join(', ')})   slowest answer ${fmt(Math.max(...results.map((r) => r.maxms)))} ms`;
    console.log(`prune: ${pruned.out}`);
    console.log(`  ${CLICKS.toLocaleString('en')} clicks in ${pruneSeconds.toFixed(1)} s (${Math.round(CLICKS / pruneSeconds).toLocaleString('en')} a second)`);
    console.log(`redirects (${CONNECTIONS} connections, ${loadGenerator}, ${SECONDS} s windows):`);
    console.log(`  alone (${alone.length} rounds)       ${line(alone)}   longest event-loop stall ${fmt(Math.max(...aloneStalls))} ms`);
    console.log(`  beside the prune (${windows.length})   ${line(windows)}   longest event-loop stall ${fmt(duringStall)} ms (target <= 50)`);
    console.log(`  p99 beside / alone: ${(median(windows.map((r) => r.p99ms)) / median(alone.map((r) => r.p99ms))).toFixed(2)}`);

    // The server's queue is written within a flush: stopping it writes the rest.
    await server.stop('SIGTERM');
    const recorded = (await database.clickCount()) - countBefore;
    const kept = await rawClicks(database, dialect);
    const exact = kept === recorded;
    console.log(`exact check: click_count grew by ${recorded}, raw clicks left ${kept} -> ${exact ? 'every new click kept, every old one pruned' : 'MISMATCH'}`);
    if (!exact) process.exitCode = 1;
  } finally {
    await server.stop('SIGTERM');
  }
}

for (const [dialect, open] of benchDatabases(pgUrl)) {
  const database = await open();
  try {
    await benchPrune(database, dialect);
  } finally {
    await database.drop();
  }
}
