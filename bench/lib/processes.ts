import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Linux gives outgoing connections their local port from this range (32768-60999 by default). */
function ephemeralPortsStart(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 2048 ? low : 32768;
  } catch {
    return 32768;
  }
}

const portsBelow = ephemeralPortsStart();
const portsFrom = Math.max(1024, portsBelow - 16000);

function bindable(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    // Every interface: a child that binds ':port' (Caddy) needs it free on all of them.
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/**
 * A port for a child process to listen on. It is drawn below the ephemeral range: a port the OS
 * hands out for listen(0) is one it may give the next outgoing connection (of any test running
 * beside) before the child binds it, and the child then fails with "address already in use".
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = portsFrom + Math.floor(Math.random() * (portsBelow - portsFrom));
    if (await bindable(port)) return port;
  }
  throw new Error('no free port below the ephemeral range');
}

export interface Started {
  child: ChildProcess;
  port: number;
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM (or the given signal) and wait for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A Node process running a file: TypeScript through tsx, JavaScript as it is. */
/** `nodeFlags`: the process's own Node flags (npmStartFlags() to run the server as `npm start` does). */
export async function startNode(file: string, env: Record<string, string>, readyUrl: string | undefined, nodeFlags: string[] = []): Promise<Started> {
  const port = await freePort();
  // BENCH_CPU_PROFILE=<folder>: every process a bench starts writes a V8 CPU profile there on exit
  // (open it in Chrome's DevTools, Performance).
  const profile = process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : [];
  // BENCH_NODE_FLAGS: flags for every process a bench starts (to weigh a V8 setting, say).
  const flags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  const args = [...nodeFlags, ...flags, ...profile, ...(file.endsWith('.ts') ? ['--import', 'tsx', path.resolve(repoRoot, file)] : [path.resolve(repoRoot, file)])];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const started: Started = {
    child,
    port,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  const probe = readyUrl ? `http://127.0.0.1:${port}${readyUrl}` : undefined;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`${file} exited: ${output}`);
    if (probe ? await fetch(probe).then((r) => r.ok, () => false) : output.includes('listening')) return started;
    if (attempt > 300) throw new Error(`${file} did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The Node flags `npm start` gives the server (package.json's start script, between `node` and the
 * file): a bench that measures what a user runs starts its server with them.
 */
export function npmStartFlags(): string[] {
  const scripts = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const words = scripts.start!.split(/\s+/);
  const node = words.indexOf('node');
  return words.slice(node + 1).filter((word) => word.startsWith('--'));
}

/**
 * A server on embedded SQLite in `dataDir` that one client may load as many users would: every
 * per-client limit off, X-Forwarded-For believed (so each visit can come from its own address).
 */
export const unlimitedServerEnv = (dataDir: string): Record<string, string> => ({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  DATABASE_URL: '',
  TRUST_PROXY: 'true',
  AUTH_RATE_LIMIT_IP: '0',
  AUTH_RATE_LIMIT_EMAIL: '0',
  REDIRECT_MISS_LIMIT: '0',
  LINKS_PER_HOUR: '0',
});
