// GET /api/links/:id/stats for a link with 1,000,000 clicks: its median against a bare
// `select count(*)` over the link's raw clicks, in the same run; then the p99 of redirects alone,
// with stats requests running beside them, and with a CSV export running beside them.
// SQLite always; PostgreSQL too with BENCH_DATABASE_URL (or TEST_DATABASE_URL).
import { sql } from 'kysely';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import type { DialectName } from '../server/db/dialect';
import { dayOf } from '../server/clicks/visitors';
import { createRankedRollupsCaches, rankedRollups } from '../server/stats/ranked-rollups';
import { openDatabaseReader } from '../server/db/database-reader';
import { registerUser } from '../server/test/test-users';
import { personalWorkspaceIdOf } from '../server/workspaces/personal-workspace';
import { type BenchDatabase, benchDatabases } from './lib/bench-database';
import { load } from './lib/load';
import { type BesideComparison, compareRedirectsBeside } from './lib/load-beside';
import { startNode } from './lib/processes';
import { STATS_CITIES, STATS_CLICKS, seedStats } from './lib/stats-seed';

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const WARM_UP = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const fmt = (n: number, digits = 2) => n.toFixed(digits).padStart(9);

/** Median milliseconds of each, run in turn round after round, after a warm-up. */
async function timeInterleaved(runs: Record<string, () => Promise<unknown>>): Promise<Record<string, number>> {
  const samples = Object.fromEntries(Object.keys(runs).map((name) => [name, [] as number[]]));
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    for (const [name, run] of Object.entries(runs)) {
      const started = performance.now();
      await run();
      if (i >= WARM_UP) samples[name]!.push(performance.now() - started);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

/** Seeds the link in-process (its owner signs up through the API) and times the stats route against count(*). */
async function seedAndTime(database: BenchDatabase, dialect: DialectName) {
  const handle = openDatabase(
    dialect === 'sqlite' ? { kind: 'sqlite', dataDir: database.env.DATA_DIR! } : { kind: 'postgres', url: database.env.DATABASE_URL! },
  );
  const config = { ...loadConfig({ DATA_DIR: database.env.DATA_DIR!, LOG_LEVEL: 'silent' }), webDir: undefined };
  const app = await buildApp({ config, database: handle });
  try {
    const { user, cookie } = await registerUser(app);
    const urlId = database.link.id;
    // The link moves into the user's personal workspace, where the stats route looks for it.
    const workspaceId = await personalWorkspaceIdOf(handle.db, user.id);
    await handle.db.updateTable('urls').set({ user_id: user.id, workspace_id: workspaceId }).where('id', '=', urlId).execute();
    const seeding = performance.now();
    await seedStats(handle.db, dialect, urlId);
    console.log(`\n--- ${database.name}: one link, ${STATS_CLICKS.toLocaleString('en')} clicks over 365 days from ${STATS_CITIES.toLocaleString('en')} cities (seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s) ---`);

    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const stats = async (range: string) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/links/${urlId}/stats?range=${range}`, { headers: { cookie } });
      if (response.status !== 200) throw new Error(`stats: ${response.status} ${await response.text()}`);
      return (await response.json()) as { total: number; byCity: unknown[]; byCountry: unknown[]; byReferrer: unknown[] };
    };
    const answer = await stats('all');
    const expected = (await sql<{ n: number }>`select count(*) as n from clicks where url_id = ${urlId} and is_bot = 0`.execute(handle.db)).rows[0]!.n;
    if (answer.total !== Number(expected)) throw new Error(`stats total ${answer.total} != ${expected} raw human clicks`);
    // The seed's variety reached the roll-ups (its cities, 30 countries, 20 sites and direct).
    if (answer.byCity.length !== 5 || answer.byCountry.length !== 30 || answer.byReferrer.length !== 10) {
      throw new Error(`unexpected breakdowns: ${JSON.stringify(answer).slice(0, 500)}`);
    }

    // The first request of a link (or one after ten minutes) sums every settled day: the server's
    // own function with a fresh cache each time, on the same reader the route uses.
    const reader = openDatabaseReader(handle, app.log, 'stats');
    const clickToday = () =>
      sql`insert into click_rollups (url_id, day, dimension, value, clicks) values (${urlId}, ${dayOf(Date.now())}, 'bots', '', 1)
        on conflict (url_id, dimension, day, value) do update set clicks = click_rollups.clicks + 1`.execute(handle.db);
    const measured = await timeInterleaved({
      'bare SELECT count(*) (baseline)': () => sql`select count(*) from clicks where url_id = ${urlId}`.execute(handle.db),
      'stats all, nothing cached (no HTTP)': () =>
        rankedRollups(reader, createRankedRollupsCaches(), { urlId, range: { to: dayOf(Date.now()) }, now: Date.now() }),
      // A range's answer is kept while its last two days' counts stand: a click between two reads
      // (a bot's, one roll-up row, well under a millisecond) makes the route read them again.
      // (Taken in this order, the read without a click follows one of the same range.)
      'GET /stats?range=all, a click since': () => clickToday().then(() => stats('all')),
      'GET /stats?range=all, no click since': () => stats('all'),
      'GET /stats?range=30d, a click since': () => clickToday().then(() => stats('30d')),
      'GET /stats?range=7d, a click since': () => clickToday().then(() => stats('7d')),
      'the click alone (one roll-up upsert)': () => clickToday(),
    });
    await reader.close();
    const rows = Object.entries(measured);
    const bare = rows[0]![1];
    console.log(`median of ${RUNS} runs each, taken in turn (so load on a shared machine hits all alike), after ${WARM_UP} to warm up`);
    for (const [name, ms] of rows) console.log(`${name.padEnd(40)}${fmt(ms, 3)} ms   ${(ms / bare).toFixed(2).padStart(6)}x baseline`);

    // One whole export, for its rate (the body is read and thrown away as it streams).
    const exportStart = performance.now();
    const csv = await fetch(`http://127.0.0.1:${port}/api/links/${urlId}/clicks.csv`, { headers: { cookie } });
    let bytes = 0;
    for await (const chunk of csv.body!) bytes += (chunk as Uint8Array).byteLength;
    const exportMs = performance.now() - exportStart;
    console.log(`CSV export of ${answer.total.toLocaleString('en')} clicks: ${(bytes / 1e6).toFixed(1)} MB in ${(exportMs / 1000).toFixed(2)} s (${Math.round(answer.total / (exportMs / 1000)).toLocaleString('en')} rows/s), heap used after ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB`);
    return { cookie, urlId };
  } finally {
    await app.close();
    await handle.close();
  }
}

async function redirectsBeside(database: BenchDatabase, cookie: string, urlId: number) {
  const server = await startNode('server/main.ts', { ...database.env, LOG_LEVEL: 'warn' }, '/api/health');
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const redirectUrl = `${base}/${database.link.shortUrl}`;
    const statsUrl = `${base}/api/links/${urlId}/stats?range=all`;
    const csvUrl = `${base}/api/links/${urlId}/clicks.csv`;
    await load(redirectUrl, CONNECTIONS, 2); // warm-up
    // The stats thread starts on the first read (compiling TypeScript when run from source): not timed.
    for (const url of [statsUrl, `${statsUrl.replace('all', '30d')}`]) {
      if ((await fetch(url, { headers: { cookie } })).status !== 200) throw new Error(`warm-up ${url} failed`);
    }
    const cases: BesideComparison['cases'] = {
      alone: [],
      'stats beside, 10/s': [{ url: statsUrl, everyMs: 100 }],
      'stats beside, 2 loops': [{ url: statsUrl }, { url: statsUrl }],
      'CSV export beside': [{ url: csvUrl }],
    };
    await compareRedirectsBeside({ redirectUrl, connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, cookie, cases, besideLabel: 'requests beside' });
  } finally {
    await server.stop();
  }
}

for (const [dialect, open] of benchDatabases(pgUrl)) {
  const database = await open();
  try {
    const { cookie, urlId } = await seedAndTime(database, dialect);
    await redirectsBeside(database, cookie, urlId);
  } finally {
    await database.drop();
  }
}
