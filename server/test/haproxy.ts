import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { freePort, repoRoot } from '../../bench/lib/processes';

export const hasHaproxy = spawnSync('haproxy', ['-v']).status === 0;

export interface Haproxy {
  /** http://127.0.0.1:port of the front. */
  url: string;
  /** The health state HAProxy holds of each server ('UP', 'DOWN', ...), from its stats page. */
  serverStatus(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

/** The configuration the repository ships (compose.yaml mounts it): the tests run it, not a copy. */
export const haproxyConfig = path.join(repoRoot, 'deploy/haproxy.cfg');

/** `haproxy -c` on the shipped file with the given environment: its exit code and what it said. */
export function checkHaproxyConfig(env: Record<string, string> = {}): { status: number | null; output: string } {
  const checked = spawnSync('haproxy', ['-c', '-f', haproxyConfig], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return { status: checked.status, output: `${checked.stdout}${checked.stderr}` };
}

/**
 * A real HAProxy (Debian's) running deploy/haproxy.cfg in front of the two given instances:
 * `corto1` and `corto2`, each a port on loopback or a host:port (a name that does not resolve
 * stands for an instance that is down). Health checks every 200 ms, the answering server named
 * in an `x-served-by` header, and a stats page for serverStatus().
 */
export async function startHaproxy(servers: { corto1: number | string; corto2: number | string }, { waitFor = ['corto1', 'corto2'] }: { waitFor?: string[] } = {}): Promise<Haproxy> {
  const [port, statsPort] = [await freePort(), await freePort()];
  const address = (server: number | string) => (typeof server === 'number' ? `127.0.0.1:${server}` : server);
  const env = {
    CORTO_BIND: `127.0.0.1:${port}`,
    CORTO1: address(servers.corto1),
    CORTO2: address(servers.corto2),
    CORTO_CHECK_INTERVAL: '200ms',
    HAPROXY_STATS_BIND: `127.0.0.1:${statsPort}`,
    CORTO_SERVED_BY: '1',
  };
  // -db: in the foreground, no daemon.
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', haproxyConfig], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const serverStatus = async () => {
    const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
    const lines = csv.split('\n').map((line) => line.split(','));
    const header = lines[0] ?? [];
    const status = header.indexOf('status');
    return Object.fromEntries(lines.filter((row) => row[0] === 'corto' && row[1] && row[1] !== 'BACKEND').map((row) => [row[1], row[status] ?? '']));
  };
  // Ready once the servers waited for are seen up.
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${output}`);
    const states = await serverStatus().catch(() => ({}) as Record<string, string>);
    if (waitFor.every((name) => states[name] === 'UP')) break;
    if (attempt > 200) throw new Error(`haproxy not ready: ${JSON.stringify(states)} ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    serverStatus,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
