// The dashboard's API for a user with 10,000 links and 1,000,000 clicks, against a bare indexed
// SELECT of the same page on the same data, in the same run. SQLite always; PostgreSQL too with
// BENCH_DATABASE_URL (or TEST_DATABASE_URL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import type { DialectName } from '../server/db/dialect';
import { migrateToLatest } from '../server/db/migrate';
import { openTestDatabase } from '../server/test/test-app';
import { registerUser } from '../server/test/test-users';
import { CLICKS, LINKS_PER_USER, seedDashboard } from './lib/dashboard-seed';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const WARM_UP = 30;
const PAGE = 50;
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Median milliseconds of each of `runs`, after a warm-up. They take turns, one call each per round,
 * so a busy moment on a shared machine weighs on the baseline and on the API alike.
 */
async function timeTogether(runs: (() => Promise<unknown>)[]): Promise<number[]> {
  for (let i = 0; i < WARM_UP; i++) for (const run of runs) await run();
  const samples: number[][] = runs.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    for (const [index, run] of runs.entries()) {
      const started = process.hrtime.bigint();
      await run();
      samples[index]!.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
  return samples.map(median);
}

async function benchOne(dialect: DialectName): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'corto-bench-dashboard-'));
  if (dialect === 'postgres') process.env.TEST_DATABASE_URL = pgUrl;
  const { database, drop } = await openTestDatabase(dialect, dataDir);
  await migrateToLatest(database.db);
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', HOST: '127.0.0.1' }), webDir: undefined };
  const app = await buildApp({ config, database });
  try {
    const { user, cookie } = await registerUser(app);
    const other = await registerUser(app);
    const seeding = Date.now();
    await seedDashboard(database.db, dialect, user.id, other.user.id);
    console.log(`\n--- ${dialect}: ${LINKS_PER_USER} links and ${CLICKS} clicks for one user (seeded in ${((Date.now() - seeding) / 1000).toFixed(1)} s), median of ${RUNS} ---`);

    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const get = async (query: string) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/links${query}`, { headers: { cookie } });
      if (response.status !== 200) throw new Error(`GET /api/links${query}: ${response.status}`);
      return (await response.json()) as { links: unknown[]; totals: { links: number; clicks: number }; nextCursor: string | null };
    };
    const first = await get('');
    if (first.totals.links !== LINKS_PER_USER || first.totals.clicks !== CLICKS || first.links.length !== PAGE) {
      throw new Error(`unexpected answer: ${JSON.stringify(first.totals)}, ${first.links.length} links`);
    }
    // A cursor halfway down: paging deep costs what the first page does.
    let cursor = first.nextCursor;
    for (let i = 0; i < 99 && cursor; i++) cursor = (await get(`?cursor=${cursor}`)).nextCursor;

    const measured: [string, () => Promise<unknown>][] = [
      ['bare indexed SELECT (baseline)', () =>
        sql`select * from urls where user_id = ${user.id} order by created_at desc limit ${PAGE}`.execute(database.db)],
      // The route's second query without HTTP, session or JSON: where much of the rest goes.
      ['bare totals SELECT (count, sum)', () =>
        sql`select count(*), sum(click_count) from urls where user_id = ${user.id}`.execute(database.db)],
      ['GET /api/links (page + totals)', () => get('')],
      ['GET /api/links, page 100', () => get(`?cursor=${cursor}`)],
      ['GET /api/links?q=número 99', () => get(`?q=${encodeURIComponent('número 99')}`)],
    ];
    const medians = await timeTogether(measured.map(([, run]) => run));
    const bare = medians[0]!;
    const rows = measured.map(([name], index): [string, number] => [name, medians[index]!]);
    for (const [name, ms] of rows) {
      console.log(`${name.padEnd(34)}${ms.toFixed(3).padStart(9)} ms   ${(ms / bare).toFixed(1).padStart(6)}× baseline`);
    }
  } finally {
    await app.close();
    await database.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await benchOne('sqlite');
if (pgUrl) await benchOne('postgres');
else console.log('\nPostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL to include it.');
