// The dashboard's API for a workspace of 20 members with 100,000 links (BENCH_DASHBOARD_LINKS) and 1,000,000 clicks: the
// list, its pages, its sorts (date, clicks, title, each way), a tag filter (alone and sorted), the
// filter by creator (alone, sorted, with a tag) and its title search (a
// common term, an accented one, a rare one, a miss) against a bare indexed
// SELECT of a page on the same data, in the same run; then the p99 of redirects alone and with ten
// searches running beside them, back to back and at a person's pace. And the same page asked with a personal API token (Bearer) against
// the session cookie: the token's lookup is cached, so it should cost no more. SQLite always; PostgreSQL too with BENCH_DATABASE_URL (or
// TEST_DATABASE_URL).
import { sql } from 'kysely';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { openDatabaseReader } from '../server/db/database-reader';
import type { DialectName } from '../server/db/dialect';
import { listWorkspaceLinks, workspaceLinkTotals } from '../server/links/links.queries';
import { registerUser, sameOrigin } from '../server/test/test-users';
import { type BenchDatabase, benchDatabases } from './lib/bench-database';
import { buildServerForBench } from './lib/build-server';
import { BENCH_TAG, CLICKS, RARE_TAG, LINKS_PER_USER, SEARCH_TERMS, seedDashboard, TEAM_MEMBERS, TEAM_SLUG } from './lib/dashboard-seed';
import { load } from './lib/load';
import { type Beside, type BesideComparison, compareRedirectsBeside } from './lib/load-beside';
import { startNode } from './lib/processes';

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const WARM_UP = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const SEARCHES_BESIDE = 10;
/**
 * The same ten, each at most one search every this many ms (a person typing): back to back, a
 * cheaper search is just asked again sooner, so only a fixed pace shows what each one costs redirects.
 */
const PACED_MS = 250;
const PAGE = 50;
/**
 * The target for every list, sort, filter and search through HTTP, on both databases: 20 ms for
 * 100,000 links, 50 ms for an account of a million (issue 36).
 */
const TARGET_MS = LINKS_PER_USER > 100_000 ? 50 : 20;
const SORTS: Record<string, string> = {
  'newest (default)': '',
  oldest: '?order=asc',
  'most clicked': '?sort=clicks',
  'least clicked': '?sort=clicks&order=asc',
  'title A-Z': '?sort=title&order=asc',
  'title Z-A': '?sort=title',
  [`tag ${BENCH_TAG}`]: `?tag=${BENCH_TAG}`,
  [`tag ${BENCH_TAG}, most clicked`]: `?tag=${BENCH_TAG}&sort=clicks`,
  [`tag ${BENCH_TAG}, title A-Z`]: `?tag=${BENCH_TAG}&sort=title&order=asc`,
  [`tag ${RARE_TAG} (${LINKS_PER_USER / 1000} links)`]: `?tag=${RARE_TAG}`,
};
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const fmt = (n: number, digits = 2) => n.toFixed(digits).padStart(9);

/**
 * Median milliseconds of each, after a warm-up. They take turns, one call each per round, so a
 * busy moment on a shared machine weighs on the baseline and on the API alike.
 */
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

const searchQuery = (term: string) => `?q=${encodeURIComponent(term)}`;

/** Seeds the user in-process (signed up through the API) and times the list against a bare SELECT. */
async function seedAndTime(database: BenchDatabase, dialect: DialectName) {
  const handle = openDatabase(
    dialect === 'sqlite' ? { kind: 'sqlite', dataDir: database.env.DATA_DIR! } : { kind: 'postgres', url: database.env.DATABASE_URL! },
  );
  // The token's limit stays on (its cost is part of a bearer request) but high enough for every timed call.
  const apiRateLimit = String((WARM_UP + RUNS) * 3 + 10);
  const config = { ...loadConfig({ DATA_DIR: database.env.DATA_DIR!, LOG_LEVEL: 'silent', HOST: '127.0.0.1', API_RATE_LIMIT: apiRateLimit }), webDir: undefined };
  const app = await buildApp({ config, database: handle });
  const reader = openDatabaseReader(handle, app.log, 'links');
  try {
    const { user, cookie } = await registerUser(app);
    const other = await registerUser(app);
    const seeding = performance.now();
    const members = await seedDashboard(handle.db, dialect, user.id, other.user.id);
    console.log(`\n--- ${database.name}: ${LINKS_PER_USER.toLocaleString('en')} links and ${CLICKS.toLocaleString('en')} clicks in a workspace of ${TEAM_MEMBERS} members (seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s) ---`);

    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    // The token is made in the team and acts there without ?workspace=; the session names it.
    const created = await fetch(`http://127.0.0.1:${port}/api/tokens?workspace=${TEAM_SLUG}`, {
      method: 'POST',
      headers: { cookie, ...sameOrigin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', scope: 'read' }),
    });
    if (created.status !== 201) throw new Error(`POST /api/tokens: ${created.status}`);
    const { secret } = (await created.json()) as { secret: string };
    const inTeam = (query: string, auth: Record<string, string>) =>
      'cookie' in auth ? `${query}${query ? '&' : '?'}workspace=${TEAM_SLUG}` : query;
    const get = async (query: string, auth: Record<string, string> = { cookie }) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/links${inTeam(query, auth)}`, { headers: auth });
      if (response.status !== 200) throw new Error(`GET /api/links${query}: ${response.status}`);
      return (await response.json()) as { links: { id: number; title: string }[]; totals: { links: number; clicks: number }; nextCursor: string | null };
    };
    const first = await get('');
    if (first.totals.links !== LINKS_PER_USER || first.totals.clicks !== CLICKS || first.links.length !== PAGE) {
      throw new Error(`unexpected answer: ${JSON.stringify(first.totals)}, ${first.links.length} links`);
    }
    // A cursor far down: paging deep costs what the first page does.
    let cursor = first.nextCursor;
    for (let i = 0; i < 99 && cursor; i++) cursor = (await get(`?cursor=${cursor}`)).nextCursor;
    const found: string[] = [];
    for (const [kind, term] of Object.entries(SEARCH_TERMS)) {
      const { links } = await get(searchQuery(term));
      found.push(`${kind} '${term}': ${links.length}${links.length === PAGE ? '+' : ''} (${links[0]?.title ?? 'none'})`);
    }
    console.log(`matches on the first page: ${found.join('; ')}`);
    // A member's links (one in TEAM_MEMBERS), in each order: the dashboard's filter by creator.
    const creator = members[TEAM_MEMBERS - 1]!;
    const sorts: Record<string, string> = {
      ...SORTS,
      [`creator (1 link in ${TEAM_MEMBERS})`]: `?createdBy=${creator}`,
      'creator, most clicked': `?createdBy=${creator}&sort=clicks`,
      'creator, title A-Z': `?createdBy=${creator}&sort=title&order=asc`,
      'creator and a tag': `?createdBy=${creator}&tag=${BENCH_TAG}`,
    };
    // Every sort pages deep as cheaply as its first page: a cursor 20 pages down each.
    const deepCursors: Record<string, string> = {};
    for (const [name, query] of Object.entries(sorts)) {
      let next = (await get(query)).nextCursor;
      for (let i = 0; i < 19 && next; i++) next = (await get(`${query}${query ? '&' : '?'}cursor=${next}`)).nextCursor;
      if (next) deepCursors[name] = `${query}${query ? '&' : '?'}cursor=${next}`;
    }

    const workspaceId = Number((await handle.db.selectFrom('workspaces').select('id').where('slug', '=', TEAM_SLUG).executeTakeFirstOrThrow()).id);
    const runs: Record<string, () => Promise<unknown>> = {
      'bare indexed SELECT (baseline)': () =>
        sql`select * from urls where workspace_id = ${workspaceId} order by created_at desc limit ${PAGE}`.execute(handle.db),
      'totals on the reader (no HTTP)': () => workspaceLinkTotals(reader, workspaceId),
    };
    for (const [kind, term] of Object.entries(SEARCH_TERMS)) {
      runs[`search ${kind} on the reader (no HTTP)`] = () => listWorkspaceLinks(reader, workspaceId, { search: term, limit: PAGE + 1 });
    }
    runs['GET /api/links (page + totals)'] = () => get('');
    runs['GET /api/links, Bearer token'] = () => get('', { authorization: `Bearer ${secret}` });
    // One link: a cheap answer, where authentication's own cost shows most.
    const oneId = first.links[0]!.id;
    const getOne = async (auth: Record<string, string>) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/links/${oneId}${inTeam('', auth)}`, { headers: auth });
      if (response.status !== 200) throw new Error(`GET /api/links/${oneId}: ${response.status}`);
      return response.json();
    };
    runs['GET /api/links/:id, session cookie'] = () => getOne({ cookie });
    runs['GET /api/links/:id, Bearer token'] = () => getOne({ authorization: `Bearer ${secret}` });
    runs['GET /api/links, page 100'] = () => get(`?cursor=${cursor}`);
    const targeted: string[] = ['GET /api/links (page + totals)', 'GET /api/links, page 100'];
    for (const [kind, term] of Object.entries(SEARCH_TERMS)) {
      runs[`GET /api/links?q=${term} (${kind})`] = () => get(searchQuery(term));
      targeted.push(`GET /api/links?q=${term} (${kind})`);
    }
    for (const [name, query] of Object.entries(sorts)) {
      targeted.push(`sort: ${name}`, `sort: ${name}, page 21`);
      runs[`sort: ${name}`] = () => get(query);
      const deep = deepCursors[name];
      if (deep) runs[`sort: ${name}, page 21`] = () => get(deep);
    }

    const measured = Object.entries(await timeInterleaved(runs));
    const bare = measured[0]![1];
    console.log(`median of ${RUNS} runs each, taken in turn (so load on a shared machine hits all alike), after ${WARM_UP} to warm up`);
    for (const [name, ms] of measured) console.log(`${name.padEnd(44)}${fmt(ms, 3)} ms   ${(ms / bare).toFixed(1).padStart(6)}x baseline`);
    const byName = Object.fromEntries(measured);
    const ratio = byName['GET /api/links, Bearer token']! / byName['GET /api/links (page + totals)']!;
    console.log(`Bearer token / session cookie, same page: ${ratio.toFixed(2)}x`);
    const oneRatio = byName['GET /api/links/:id, Bearer token']! / byName['GET /api/links/:id, session cookie']!;
    console.log(`Bearer token / session cookie, one link: ${oneRatio.toFixed(2)}x`);
    const slow = measured.filter(([name, ms]) => targeted.includes(name) && ms > TARGET_MS);
    console.log(
      slow.length === 0
        ? `the list, every sort, filter and search (GET /api/links, page and totals): median <= ${TARGET_MS} ms`
        : `OVER ${TARGET_MS} ms: ${slow.map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`).join('; ')}`,
    );
    return { cookie };
  } finally {
    await reader.close();
    await app.close();
    await handle.close();
  }
}

async function redirectsBeside(database: BenchDatabase, cookie: string, serverMain: string) {
  // The server as production runs it (bundled), like the redirect bench's.
  const server = await startNode(serverMain, { ...database.env, LOG_LEVEL: 'warn' }, '/api/health');
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const redirectUrl = `${base}/${database.link.shortUrl}`;
    const searchUrls = Object.values(SEARCH_TERMS).map((term) => `${base}/api/links${searchQuery(term)}`);
    await load(redirectUrl, CONNECTIONS, 2); // warm-up
    // The reader's thread starts on the first read (compiling TypeScript when run from source): not timed.
    for (const url of searchUrls) if ((await fetch(url, { headers: { cookie } })).status !== 200) throw new Error(`warm-up ${url} failed`);
    // Each loop takes the four terms in turn, starting at a different one.
    const searches: Beside[] = Array.from({ length: SEARCHES_BESIDE }, (_, i) => ({
      url: searchUrls.map((_url, j) => searchUrls[(i + j) % searchUrls.length]!),
    }));
    const cases: BesideComparison['cases'] = {
      alone: [],
      [`${SEARCHES_BESIDE} searches beside`]: searches,
      [`${SEARCHES_BESIDE} searches beside, one per ${PACED_MS} ms each`]: searches.map((search) => ({ ...search, everyMs: PACED_MS })),
    };
    await compareRedirectsBeside({ redirectUrl, connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, cookie, cases, besideLabel: 'searches beside' });
  } finally {
    await server.stop();
  }
}

const serverMain = await buildServerForBench();
for (const [dialect, open] of benchDatabases(pgUrl)) {
  const database = await open();
  try {
    const { cookie } = await seedAndTime(database, dialect);
    await redirectsBeside(database, cookie, serverMain);
  } finally {
    await database.drop();
  }
}
