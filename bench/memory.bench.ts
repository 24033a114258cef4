// Memory and start-up of the production server as `npm start` runs it (bundled, its Node flags,
// embedded SQLite, IP database in use):
//   start -> listening, with the click writer's thread ready (median of several starts);
//   RSS idle; RSS sampled every second during 1,000,000 redirects (from varied public addresses, so
//   every click is located) and 10,000 API calls and after them, 3 s after and once settled (40 s
//   after: V8 gives back the young generation once the process is idle, the reader threads end
//   after 30 s without a read); the worst second. Beside them, a bare node:http process's RSS: the
//   floor any Node server pays, the baseline of the ratios.
// Smaller runs: BENCH_MEMORY_REDIRECTS, BENCH_MEMORY_API_CALLS, BENCH_MEMORY_STARTS, BENCH_MEMORY_SETTLE_SECONDS.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { makeImage } from '../server/test/test-users';
import { buildServerForBench } from './lib/build-server';
import { freePort, npmStartFlags, repoRoot, startNode, unlimitedServerEnv } from './lib/processes';

const REDIRECTS = Number(process.env.BENCH_MEMORY_REDIRECTS ?? 1_000_000);
const API_CALLS = Number(process.env.BENCH_MEMORY_API_CALLS ?? 10_000);
const STARTS = Number(process.env.BENCH_MEMORY_STARTS ?? 5);
const IDLE_SETTLE_MS = 3000;
const SETTLE_SECONDS = Math.max(IDLE_SETTLE_MS / 1000, Number(process.env.BENCH_MEMORY_SETTLE_SECONDS ?? 40));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Resident and peak resident memory of a process, in MB (Linux). */
function memory(pid: number): { rss: number; peak: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024, anon: kb('RssAnon') / 1024, file: kb('RssFile') / 1024 };
}

/** CPU seconds (user + system, every thread) a process has used so far (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/**
 * Milliseconds from spawning the server to its first answer (it listens once the writer is
 * ready), and the CPU time it used to get there: on a machine busy with other work the wall time
 * mostly measures the wait for a core, the CPU time what the start itself costs.
 */
async function timeToListening(main: string): Promise<{ wall: number; cpu: number }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'corto-bench-memory-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...npmStartFlags(), path.join(repoRoot, main)], { cwd: repoRoot, env: { ...process.env, ...unlimitedServerEnv(dataDir), HOST: '127.0.0.1', PORT: String(port) } });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error('server exited');
      if (await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false)) {
        return { wall: performance.now() - started, cpu: cpuSeconds(child.pid!) * 1000 };
      }
      await sleep(5);
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function seed(base: string): Promise<{ cookie: string; code: string; id: number }> {
  const form = new FormData();
  form.append('name', 'Bench');
  form.append('email', `bench-${Date.now()}@corto.test`);
  form.append('password', 'secreto-123-bench');
  form.append('profileImage', new Blob([new Uint8Array(await makeImage())], { type: 'image/png' }), 'a.png');
  const registered = await fetch(`${base}/api/auth/register`, { method: 'POST', body: form });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const cookie = registered.headers.getSetCookie()[0]!.split(';')[0]!;
  const headers = { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' };
  let link: { shortCode: string; id: number } | undefined;
  for (let i = 0; i < 20; i++) {
    const created = await fetch(`${base}/api/links`, { method: 'POST', headers, body: JSON.stringify({ title: `Bench ${i}`, longUrl: `https://example.com/${i}` }) });
    if (created.status !== 201) throw new Error(`create: ${created.status}`);
    link = ((await created.json()) as { link: { shortCode: string; id: number } }).link;
  }
  return { cookie, code: link!.shortCode, id: link!.id };
}

/** A public IPv4 address from a fixed sequence: each click is located in the IP database. */
let address = 0;
function nextAddress(): string {
  address = (address + 2_654_435_761) >>> 0; // Knuth's multiplicative step: spread over the whole space
  return `${(address >>> 24) % 223 + 1}.${(address >>> 16) & 255}.${(address >>> 8) & 255}.${address & 255}`;
}

async function main() {
  const main = await buildServerForBench();
  console.log(`server: node ${npmStartFlags().join(' ')} ${main}; ${REDIRECTS.toLocaleString('en')} redirects, ${API_CALLS.toLocaleString('en')} API calls\n`);

  // Plain JavaScript (no tsx loader in it): what node:http alone costs.
  const bare = spawn(process.execPath, ['-e', "require('node:http').createServer((q, r) => r.end()).listen(0, '127.0.0.1')"]);
  await sleep(1000);
  const bareRss = memory(bare.pid!).rss;
  bare.kill('SIGTERM');

  const starts: Array<{ wall: number; cpu: number }> = [];
  for (let i = 0; i < STARTS; i++) starts.push(await timeToListening(main));

  const dataDir = await mkdtemp(path.join(tmpdir(), 'corto-bench-memory-'));
  const server = await startNode(main, unlimitedServerEnv(dataDir), '/api/health', npmStartFlags());
  try {
    const pid = server.child.pid!;
    const base = `http://127.0.0.1:${server.port}`;
    await sleep(IDLE_SETTLE_MS);
    const idle = memory(pid);

    const { cookie, code, id } = await seed(base);
    // Every second from the first redirect to the end: a server under steady traffic never gets to settle.
    const duringLoad: number[] = [];
    const sampler = setInterval(() => duringLoad.push(memory(pid).rss), 1000);
    const redirects = await autocannon({
      url: `${base}/${code}`,
      connections: 50,
      amount: REDIRECTS,
      followRedirect: false,
      requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'x-forwarded-for': nextAddress(), 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36' } }) }],
    });
    const afterRedirects = memory(pid);
    const api = await autocannon({
      url: base,
      connections: 10,
      amount: API_CALLS,
      headers: { cookie },
      requests: [{ path: '/api/links' }, { path: `/api/links/${id}/stats` }, { path: '/api/auth/session' }, { path: `/api/links/${id}` }],
    });
    // Every second after the load: what the server holds 3 s after it (the last clicks written),
    // and once settled: V8 gives back what the load made it take when it sees the process idle (the
    // young generation shrinks back, the old generation is compacted), and the reader threads end.
    clearInterval(sampler);
    const afterLoad: Array<ReturnType<typeof memory>> = [];
    for (let second = 1; second <= SETTLE_SECONDS; second++) {
      await sleep(1000);
      afterLoad.push(memory(pid));
    }
    const after = afterLoad[IDLE_SETTLE_MS / 1000 - 1]!;
    const settled = afterLoad.at(-1)!;

    const mb = (n: number) => `${n.toFixed(0).padStart(5)} MB`;
    const ratio = (n: number) => (Number.isFinite(bareRss) ? `${(n / bareRss).toFixed(2)}x bare node` : '');
    const walls = starts.map((start) => start.wall);
    const cpus = starts.map((start) => start.cpu);
    console.log(`start to listening (writer ready), median of ${STARTS}: ${median(walls).toFixed(0)} ms wall [${walls.map((s) => s.toFixed(0)).join(', ')}], ${median(cpus).toFixed(0)} ms CPU [${cpus.map((s) => s.toFixed(0)).join(', ')}]`);
    console.log(`bare node:http server RSS:        ${mb(bareRss)}`);
    console.log(`idle RSS:                         ${mb(idle.rss)}   ${ratio(idle.rss)} (anonymous ${idle.anon.toFixed(0)} MB, files ${idle.file.toFixed(0)} MB)`);
    console.log(`RSS after redirects:              ${mb(afterRedirects.rss)}   (${redirects['3xx'].toLocaleString('en')} answered 302, ${Math.round(redirects.requests.average).toLocaleString('en')} req/s, errors ${redirects.errors + redirects.non2xx - redirects['3xx']})`);
    console.log(`RSS after redirects and API calls: ${mb(after.rss)}   ${ratio(after.rss)} (anonymous ${after.anon.toFixed(0)} MB, files ${after.file.toFixed(0)} MB; ${api['2xx'].toLocaleString('en')} API answers 2xx, ${api.non2xx} other)`);
    console.log(`RSS ${SETTLE_SECONDS} s after them (settled):    ${mb(settled.rss)}   ${ratio(settled.rss)} (anonymous ${settled.anon.toFixed(0)} MB, files ${settled.file.toFixed(0)} MB)`);
    console.log(`  each second after the load: ${afterLoad.map(({ rss }) => rss.toFixed(0)).join(' ')} MB`);
    console.log(`  each second during the load: ${duringLoad.map((rss) => rss.toFixed(0)).join(' ')} MB`);
    const worst = Math.max(...duringLoad, ...afterLoad.map(({ rss }) => rss));
    console.log(`worst second (during and after):  ${mb(worst)}   ${ratio(worst)}`);
    console.log(`peak RSS:                         ${mb(settled.peak)}`);
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
