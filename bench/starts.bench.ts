// Issue 36, point 1: is every fresh start of the server as fast as the others? BENCH_STARTS times,
// three fresh processes: this build (started as `npm start` starts it, on a folder of its own) and
// two bare node:http servers, loaded in alternated rounds. Corto is measured against the first bare
// server, and the second bare server against the first too: that control says how far two starts
// of the same 13-line server differ on this machine, the floor under any spread between Corto's.
// Beside each start: the event loop's CPU per redirect, the other threads', minor collections,
// read() calls and context switches per redirect, the cores the busy threads were last seen on, and
// the share of the machine's CPU time the hypervisor took meanwhile (steal).
import { readdirSync, readFileSync } from 'node:fs';
import { sqliteBaselineDatabase } from './lib/bench-database';
import { buildServerForBench } from './lib/build-server';
import { cpuSeconds, median } from './lib/cpu-time';
import { load, loadGenerator, type LoadResult } from './lib/load';
import { npmStartFlags, type Started, startNode } from './lib/processes';
import { gcSoFar } from './lib/server-gc';

const STARTS = Number(process.env.BENCH_STARTS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
// 3 s: each server then waits about 6 s while the other two are loaded. After about 8 s without
// work V8 shrinks the young generation, and the next round pays two to three
// times the minor collections until it has grown again (4 s rounds: 9.6-15.9 per 10,000 redirects
// against 5.1), which is another measurement: the first seconds after a pause.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = 50;
// BENCH_START_FLAGS: Node flags for the measured servers only (the bare ones run without them).
const startFlags = process.env.BENCH_START_FLAGS?.split(' ').filter(Boolean) ?? [];

/** The main thread's counters from /proc: read() calls and voluntary / involuntary switches. */
function threadCounters(pid: number) {
  const task = `/proc/${pid}/task/${pid}`;
  const io = readFileSync(`${task}/io`, 'utf8');
  const status = readFileSync(`${task}/status`, 'utf8');
  const field = (text: string, name: string) => Number(text.match(new RegExp(`^${name}:\\s+(\\d+)`, 'm'))?.[1] ?? NaN);
  return { reads: field(io, 'syscr'), voluntary: field(status, 'voluntary_ctxt_switches'), involuntary: field(status, 'nonvoluntary_ctxt_switches') };
}

/** The threads that used half a second or more, each with the core it last ran on (field 39 of its stat). */
function busyThreadCores(pid: number): string {
  return readdirSync(`/proc/${pid}/task`)
    .map((tid) => {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      return { tid, core: fields[36], ticks: Number(fields[11]) + Number(fields[12]) };
    })
    .filter((thread) => thread.ticks > 50)
    .map((thread) => `${thread.tid === String(pid) ? 'loop' : 'thread'}@${thread.core}`)
    .join(' ');
}

/** The machine's CPU time so far, and the part of it the hypervisor gave to other guests (steal). */
function machineTicks(): { total: number; steal: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return { total: fields.reduce((sum, n) => sum + n, 0), steal: fields[7] ?? 0 };
}

interface Side {
  server: Started;
  url: string;
  rps: number[];
  loopUs: number[];
  otherUs: number[];
}

async function measure(side: Side): Promise<LoadResult> {
  const pid = side.server.child.pid;
  const loopBefore = cpuSeconds(pid, true);
  const allBefore = cpuSeconds(pid);
  const result = await load(side.url, CONNECTIONS, SECONDS);
  const loopUs = ((cpuSeconds(pid, true) - loopBefore) * 1e6) / result.requests;
  side.rps.push(result.rps);
  side.loopUs.push(loopUs);
  side.otherUs.push(((cpuSeconds(pid) - allBefore) * 1e6) / result.requests - loopUs);
  return result;
}

const pairedRatio = (a: Side, b: Side) => median(a.rps.map((rps, i) => rps / b.rps[i]!));
const spreadOf = (ratios: number[]) => (Math.max(...ratios) - Math.min(...ratios)) / median(ratios);
const list = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');

const serverMain = await buildServerForBench();
const flags = [...npmStartFlags(), ...startFlags];
console.log(
  `\n--- ${STARTS} fresh starts of Corto (${flags.join(' ') || 'no flags'}) and of two bare node:http servers, ` +
    `${ROUNDS} alternated rounds of ${SECONDS} s, ${CONNECTIONS} connections, ${loadGenerator} ---`,
);
const cortoRatios: number[] = [];
const controlRatios: number[] = [];
for (let start = 0; start < STARTS; start++) {
  const folder = await sqliteBaselineDatabase(serverMain);
  const started: Started[] = [];
  try {
    const side = (server: Started, url: string): Side => ({ server, url, rps: [], loopUs: [], otherUs: [] });
    const bareServer = await startNode('bench/lib/bare-redirect-server.ts', {}, undefined);
    started.push(bareServer);
    const controlServer = await startNode('bench/lib/bare-redirect-server.ts', {}, undefined);
    started.push(controlServer);
    const cortoServer = await startNode(serverMain, folder.env, '/api/health', flags);
    started.push(cortoServer);
    const base = `http://127.0.0.1:${cortoServer.port}`;
    const bare = side(bareServer, `http://127.0.0.1:${bareServer.port}/${folder.shortUrl}`);
    const control = side(controlServer, `http://127.0.0.1:${controlServer.port}/${folder.shortUrl}`);
    const corto = side(cortoServer, `${base}/${folder.shortUrl}`);
    for (const { url } of [corto, bare, control]) await load(url, CONNECTIONS, 2); // warm-up: JIT, the IP database's pages

    const gcBefore = (await gcSoFar(base)).gc.minor!;
    const ticksBefore = machineTicks();
    const countersBefore = threadCounters(cortoServer.child.pid!);
    let redirects = 0;
    const sides = [bare, corto, control];
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with another of the three, so drift on the machine falls on each alike.
      for (let i = 0; i < sides.length; i++) {
        const which = sides[(i + round + start) % sides.length]!;
        const result = await measure(which);
        if (which === corto) redirects += result.requests;
      }
    }
    const gcAfter = (await gcSoFar(base)).gc.minor!;
    const ticksAfter = machineTicks();
    const steal = (ticksAfter.steal - ticksBefore.steal) / (ticksAfter.total - ticksBefore.total);
    const countersAfter = threadCounters(cortoServer.child.pid!);
    const per = (after: number, before: number, scale: number) => (((after - before) * scale) / redirects).toFixed(2);
    cortoRatios.push(pairedRatio(corto, bare));
    controlRatios.push(pairedRatio(control, bare));
    const rounds = (of: Side) => list(of.rps.map((rps, i) => rps / bare.rps[i]!));
    console.log(
      `start ${start + 1}: Corto / bare ${cortoRatios.at(-1)!.toFixed(2)} (rounds ${rounds(corto)}), ` +
        `second bare / bare ${controlRatios.at(-1)!.toFixed(2)} (rounds ${rounds(control)}); ` +
        `CPU time the hypervisor took (steal) ${(steal * 100).toFixed(1)} %\n` +
        `  event loop µs per request: Corto ${median(corto.loopUs).toFixed(1)} (its other threads ${median(corto.otherUs).toFixed(1)}), ` +
        `bare ${median(bare.loopUs).toFixed(1)}, second bare ${median(control.loopUs).toFixed(1)}\n` +
        `  Corto per redirect: minor GCs ${per(gcAfter.count, gcBefore.count, 10_000)} per 10k, ${per(gcAfter.seconds * 1e6, gcBefore.seconds * 1e6, 1)} µs; ` +
        `read() ${per(countersAfter.reads, countersBefore.reads, 1)}; context switches per 1000: ` +
        `${per(countersAfter.voluntary, countersBefore.voluntary, 1000)} voluntary, ${per(countersAfter.involuntary, countersBefore.involuntary, 1000)} involuntary; ` +
        `busy threads ${busyThreadCores(cortoServer.child.pid!)}`,
    );
  } finally {
    await Promise.all(started.map((server) => server.stop()));
    folder.drop();
  }
}
console.log(
  `Corto / bare by start: ${list(cortoRatios)}; lowest ${Math.min(...cortoRatios).toFixed(2)} (goal >= 0.85), ` +
    `spread ${(spreadOf(cortoRatios) * 100).toFixed(0)} % of the median (goal <= 10 %)`,
);
console.log(
  `second bare / bare by start (the control): ${list(controlRatios)}; spread ${(spreadOf(controlRatios) * 100).toFixed(0)} % of the median: ` +
    `what two starts of one bare server differ by on this machine`,
);
