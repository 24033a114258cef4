import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Result as AutocannonResult } from 'autocannon';
import { repoRoot } from './processes';

// wrk (Debian's package) when present: written in C, it leaves more of a 2-core machine to the
// server under test. Otherwise autocannon, in a Node process of its own (autocannon-child.ts), so
// that nothing else the bench runs shares its event loop.

export interface LoadResult {
  requests: number;
  /** Answers with a 2xx or 3xx status. */
  ok: number;
  rps: number;
  p50ms: number;
  p99ms: number;
  /** The slowest answer. */
  maxms: number;
  errors: number;
}

export const loadGenerator: 'wrk' | 'autocannon' = spawnSync('wrk', ['--version']).error ? 'autocannon' : 'wrk';

function ms(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n;
}

async function runWrk(url: string, connections: number, seconds: number, host?: string): Promise<LoadResult> {
  const child = spawn('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...(host ? ['-H', `Host: ${host}`] : []), url]);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  const latency = (pct: string) => {
    const match = out.match(new RegExp(`^\\s+${pct}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm'));
    return match ? ms(match[1]!, match[2]!) : NaN;
  };
  const slowest = out.match(/^\s+Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s|m)\s/m);
  const requests = Number(out.match(/(\d+) requests in/)?.[1] ?? 0);
  const bad = Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0);
  const socket = out.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  const errors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requests,
    ok: requests - bad,
    rps: Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? 0),
    p50ms: latency('50'),
    p99ms: latency('99'),
    maxms: slowest ? ms(slowest[1]!, slowest[2]!) : NaN,
    errors,
  };
}

/** autocannon's child for `seconds`, or until `stop` settles (then started resolves once it runs). */
async function runAutocannon(
  url: string,
  connections: number,
  seconds: number | { stop: Promise<unknown>; started(): void },
  host?: string,
): Promise<LoadResult> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(repoRoot, 'bench/lib/autocannon-child.ts'),
      url,
      String(connections),
      typeof seconds === 'number' ? String(seconds) : 'until-stopped',
      ...(host ? [host] : []),
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (typeof seconds !== 'number' && out.startsWith('started\n')) {
      out = out.slice('started\n'.length);
      seconds.started();
      void seconds.stop.finally(() => child.kill('SIGINT'));
    }
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${String(code)}`);
  const result = JSON.parse(out) as AutocannonResult;
  const ok = result['2xx'] + result['3xx'];
  return {
    requests: ok + result['4xx'] + result['5xx'],
    ok,
    rps: result.requests.average,
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    maxms: result.latency.max,
    errors: result.errors + result.timeouts,
  };
}

/** `host`: the Host header to send instead of the URL's (a custom domain's visits). */
export async function load(url: string, connections: number, seconds: number, host?: string): Promise<LoadResult> {
  return loadGenerator === 'wrk' ? runWrk(url, connections, seconds, host) : runAutocannon(url, connections, seconds, host);
}

/**
 * Load for as long as something runs (until `stop` settles): `started` is called once the load is
 * on, so what it is measured beside can begin then. autocannon runs once, for exactly that long;
 * wrk takes windows of `windowSeconds` until then. One result per run.
 */
export async function loadUntil(url: string, connections: number, stop: Promise<unknown>, started: () => void, windowSeconds = 5): Promise<LoadResult[]> {
  if (loadGenerator === 'autocannon') return [await runAutocannon(url, connections, { stop, started })];
  let stopped = false;
  void stop.finally(() => (stopped = true));
  const windows: LoadResult[] = [];
  do {
    const window = runWrk(url, connections, windowSeconds);
    if (windows.length === 0) started();
    windows.push(await window);
  } while (!stopped);
  return windows;
}
