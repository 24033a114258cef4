// A server after a week of use against a fresh one: does the redirect slow with age?
//
// Both run the production bundle as `npm start` runs it, on embedded SQLite. The aged one is first
// filled through its API the way users fill it: BENCH_AGED_USERS sign-ups (1,000), BENCH_AGED_LINKS
// links among them (100,000), BENCH_AGED_REDIRECTS redirects spread over every link (1,000,000,
// from varied addresses), and a day of statistics and list reads (BENCH_AGED_READS, 10,000). Then
// the fresh server (one user, one link), the aged one (one of its links) and a bare node:http 302
// server are loaded in alternated rounds, and the bench prints aged / fresh per round, with the
// spread, and each one's ratio to bare. Goal: aged / fresh within 5 %. Then the aged server is
// restarted on its data and measured against the fresh one again: what the process gathered over
// its life against what its database holds. And first, the aged server's own link against bare
// before the fill and after it: the same process, before and after its week.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { makeImage } from '../server/test/test-users';
import { buildServerForBench } from './lib/build-server';
import { median } from './lib/cpu-time';
import { load } from './lib/load';
import { npmStartFlags, type Started, startNode, unlimitedServerEnv } from './lib/processes';
import { type GcSoFar, gcSoFar } from './lib/server-gc';

const USERS = Number(process.env.BENCH_AGED_USERS ?? 1_000);
const LINKS = Number(process.env.BENCH_AGED_LINKS ?? 100_000);
const REDIRECTS = Number(process.env.BENCH_AGED_REDIRECTS ?? 1_000_000);
const READS = Number(process.env.BENCH_AGED_READS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;

function gcDuring(before: GcSoFar, after: GcSoFar): string {
  return Object.keys(after.gc)
    .map((kind) => `${kind} ${((after.gc[kind]!.seconds - (before.gc[kind]?.seconds ?? 0)) * 1000).toFixed(0)} ms`)
    .join(', ');
}

function rssMb(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? NaN) / 1024;
}

interface Account {
  cookie: string;
}

const picture = new Uint8Array(await makeImage());

async function signUp(base: string, n: number): Promise<Account> {
  const form = new FormData();
  form.append('name', `Usuaria ${n}`);
  form.append('email', `usuaria-${n}-${Date.now()}@corto.test`);
  form.append('password', 'secreto-123-bench');
  form.append('profileImage', new Blob([picture], { type: 'image/png' }), 'a.png');
  const answer = await fetch(`${base}/api/auth/register`, { method: 'POST', body: form });
  if (answer.status !== 201) throw new Error(`register: ${answer.status} ${await answer.text()}`);
  return { cookie: answer.headers.getSetCookie()[0]!.split(';')[0]! };
}

const jsonHeaders = (account: Account) => ({ cookie: account.cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' });

const alias = (n: number) => `enlace-${n}`;

async function createLink(base: string, account: Account, n: number): Promise<{ id: number; shortCode: string }> {
  const answer = await fetch(`${base}/api/links`, {
    method: 'POST',
    headers: jsonHeaders(account),
    body: JSON.stringify({ title: `Enlace ${n}`, longUrl: `https://example.com/articulo/${n}?ref=corto` }),
  });
  if (answer.status !== 201) throw new Error(`create: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { link: { id: number; shortCode: string } }).link;
}

/** wrk over many paths, each request a random one from a varied address, until `total` are answered. */
async function redirectsOver(base: string, codes: string[], total: number): Promise<number> {
  const folder = await mkdtemp(path.join(tmpdir(), 'corto-bench-aged-'));
  const script = path.join(folder, 'paths.lua');
  await writeFile(
    script,
    `local paths = {${codes.map((code) => `"/${code}"`).join(',')}}
math.randomseed(7)
request = function()
  local a = math.random(1, 223) .. "." .. math.random(0, 255) .. "." .. math.random(0, 255) .. "." .. math.random(1, 254)
  return wrk.format("GET", paths[math.random(#paths)], { ["X-Forwarded-For"] = a, ["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0" })
end
`,
  );
  let done = 0;
  try {
    while (done < total) {
      const child = spawn('wrk', ['-t1', `-c${CONNECTIONS}`, '-d5s', '-s', script, base]);
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await new Promise((resolve) => child.on('close', resolve));
      const requests = Number(out.match(/(\d+) requests in/)?.[1] ?? 0);
      if (requests === 0) throw new Error(`wrk answered nothing: ${out}`);
      done += requests;
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  return done;
}

async function fill(server: Started): Promise<string> {
  const base = `http://127.0.0.1:${server.port}`;
  const started = performance.now();
  const at = (what: string) => console.log(`  ${what}: ${((performance.now() - started) / 1000).toFixed(0)} s, RSS ${rssMb(server.child.pid!).toFixed(0)} MB`);
  const limit = pLimit(8);
  const accounts = await Promise.all(Array.from({ length: USERS }, (_, n) => limit(() => signUp(base, n))));
  at(`${USERS.toLocaleString('en')} users signed up`);
  // Each user imports their share of the links as a CSV, as teams moving from another shortener
  // do (a POST per link would take a quarter of an hour for 100,000), each with an alias the redirects can name.
  const perUser = Math.ceil(LINKS / USERS);
  await Promise.all(
    accounts.map((account, owner) =>
      limit(async () => {
        const rows = Array.from({ length: perUser }, (_, i) => owner * perUser + i).filter((n) => n < LINKS);
        const csv = `title,longUrl,customUrl\n${rows.map((n) => `Enlace ${n},https://example.com/articulo/${n}?ref=corto,${alias(n)}`).join('\n')}\n`;
        const form = new FormData();
        form.append('file', new Blob([csv], { type: 'text/csv' }), 'enlaces.csv');
        const answer = await fetch(`${base}/api/links/import`, { method: 'POST', body: form, headers: { cookie: account.cookie, 'sec-fetch-site': 'same-origin' } });
        const result = (await answer.json()) as { created?: number };
        if (answer.status !== 200 || result.created !== rows.length) throw new Error(`import: ${answer.status} ${JSON.stringify(result).slice(0, 300)}`);
      }),
    ),
  );
  at(`${LINKS.toLocaleString('en')} links imported`);
  // Each user's links by id, for their statistics: the list's first page names them.
  const owned = await Promise.all(
    accounts.map((account) =>
      limit(async () => {
        const answer = await fetch(`${base}/api/links?limit=10`, { headers: { cookie: account.cookie } });
        return ((await answer.json()) as { links: Array<{ id: number }> }).links.map((link) => link.id);
      }),
    ),
  );
  const redirected = await redirectsOver(
    base,
    Array.from({ length: LINKS }, (_, n) => alias(n)),
    REDIRECTS,
  );
  at(`${redirected.toLocaleString('en')} redirects over every link`);
  // A day of reading: each read a user's statistics of one of their links, their list (a page,
  // a search) or their session, spread over the users.
  await Promise.all(
    Array.from({ length: READS }, (_, n) =>
      limit(async () => {
        const owner = (n * 7919) % USERS;
        const account = accounts[owner]!;
        const ids = owned[owner]!;
        const paths = [`/api/links/${ids[n % ids.length]}/stats`, '/api/links?limit=50', `/api/links?q=Enlace%20${n % 100}`, '/api/auth/session'];
        const answer = await fetch(`${base}${paths[n % paths.length]}`, { headers: { cookie: account.cookie } });
        if (!answer.ok) throw new Error(`read ${paths[n % paths.length]}: ${answer.status}`);
        await answer.arrayBuffer();
      }),
    ),
  );
  at(`${READS.toLocaleString('en')} statistics and list reads`);
  return `${base}/${alias(0)}`;
}

/** `url` and `baselineUrl` in ROUNDS alternated rounds, `url` first in the even ones: each round's url / baseline. */
async function ratiosInTurn(url: string, baselineUrl: string): Promise<number[]> {
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const turn = round % 2 === 0 ? [url, baselineUrl] : [baselineUrl, url];
    const rps = new Map<string, number>();
    for (const side of turn) rps.set(side, (await load(side, CONNECTIONS, SECONDS)).rps);
    ratios.push(rps.get(url)! / rps.get(baselineUrl)!);
  }
  return ratios;
}

async function main() {
  const serverMain = await buildServerForBench();
  const flags = npmStartFlags();
  console.log(`server: node ${flags.join(' ')} ${serverMain}; aged by ${USERS} users, ${LINKS} links, ${REDIRECTS} redirects, ${READS} reads`);
  const folders = [await mkdtemp(path.join(tmpdir(), 'corto-bench-aged-')), await mkdtemp(path.join(tmpdir(), 'corto-bench-fresh-'))];
  let aged = await startNode(serverMain, unlimitedServerEnv(folders[0]!), '/api/health', flags);
  let fresh: Started | undefined;
  let bare: Started | undefined;
  try {
    bare = await startNode('bench/lib/bare-redirect-server.ts', {}, undefined);
    const bareUrl = `http://127.0.0.1:${bare.port}/x`;
    // The aged server's own link, made before its week and measured against bare before and after
    // it: the same process on both sides, so the fast or slow state a fresh process starts in
    // (issue 36) is too, where aged / fresh below compares two processes.
    const agedBase = `http://127.0.0.1:${aged.port}`;
    const ownLink = await createLink(agedBase, await signUp(agedBase, USERS), LINKS);
    const ownUrl = `${agedBase}/${ownLink.shortCode}`;
    await load(ownUrl, CONNECTIONS, 2);
    const before = await ratiosInTurn(ownUrl, bareUrl);
    console.log('filling the aged server:');
    const agedUrl = await fill(aged);
    await load(ownUrl, CONNECTIONS, 2);
    const after = await ratiosInTurn(ownUrl, bareUrl);
    fresh = await startNode(serverMain, unlimitedServerEnv(folders[1]!), '/api/health', flags);
    const freshBase = `http://127.0.0.1:${fresh.port}`;
    const freshLink = await createLink(freshBase, await signUp(freshBase, 0), 0);
    const freshUrl = `${freshBase}/${freshLink.shortCode}`;
    // Both Cortos warmed on their link before the rounds.
    await load(agedUrl, CONNECTIONS, 2);
    await load(freshUrl, CONNECTIONS, 2);

    const gcBefore = { aged: await gcSoFar(agedBase), fresh: await gcSoFar(freshBase) };
    const sides = { aged: agedUrl, fresh: freshUrl, bare: bareUrl } as const;
    const rps: Record<keyof typeof sides, number[]> = { aged: [], fresh: [], bare: [] };
    const order: Array<keyof typeof sides> = ['aged', 'fresh', 'bare'];
    for (let round = 0; round < ROUNDS; round++) {
      // Each round in another order, so no side always follows the same one.
      const turn = round % 2 === 0 ? order : [...order].reverse();
      for (const side of turn) rps[side].push((await load(sides[side], CONNECTIONS, SECONDS)).rps);
    }
    const gcAfter = { aged: await gcSoFar(agedBase), fresh: await gcSoFar(freshBase) };
    for (const side of ['aged', 'fresh'] as const) {
      console.log(`${side}: heap in use ${gcAfter[side].heapMb.toFixed(0)} MB; GC during its ${ROUNDS} rounds: ${gcDuring(gcBefore[side], gcAfter[side])}`);
    }
    const ratios = rps.aged.map((value, i) => value / rps.fresh[i]!);
    const list = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');
    for (const side of order) console.log(`${side.padEnd(6)} ${Math.round(median(rps[side])).toLocaleString('en').padStart(8)} req/s   (per round: ${rps[side].map((v) => Math.round(v)).join(', ')})`);
    console.log(`aged / fresh: ${median(ratios).toFixed(2)}, median of the rounds' ratios (rounds ${list(ratios)}; goal within 5 %)`);
    console.log(`to bare: aged ${median(rps.aged.map((v, i) => v / rps.bare[i]!)).toFixed(2)}, fresh ${median(rps.fresh.map((v, i) => v / rps.bare[i]!)).toFixed(2)}`);
    console.log(
      `the same process to bare, before its week ${median(before).toFixed(2)} (rounds ${list(before)}), after it ${median(after).toFixed(2)} (rounds ${list(after)}): after / before ${(median(after) / median(before)).toFixed(2)} (goal within 5 %)`,
    );
    console.log(`RSS: aged ${rssMb(aged.child.pid!).toFixed(0)} MB, fresh ${rssMb(fresh.child.pid!).toFixed(0)} MB`);

    // The aged data in a new process: tells what the process gathered from what the database holds.
    await aged.stop();
    aged = await startNode(serverMain, unlimitedServerEnv(folders[0]!), '/api/health', flags);
    const restartedUrl = `http://127.0.0.1:${aged.port}/${alias(0)}`;
    await load(restartedUrl, CONNECTIONS, 2);
    const restartRatios = await ratiosInTurn(restartedUrl, freshUrl);
    console.log(`aged data, restarted process / fresh: ${median(restartRatios).toFixed(2)} (rounds ${list(restartRatios)})`);
  } finally {
    await Promise.all([aged.stop(), fresh?.stop(), bare?.stop()]);
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  }
}

await main();
