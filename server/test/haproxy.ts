import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../bench/lib/processes';

export const hasHaproxy = spawnSync('haproxy', ['-v']).status === 0;

export interface Haproxy {
  /** http://127.0.0.1:port of the front. */
  url: string;
  /** The health state HAProxy holds of each server ('UP', 'DOWN', ...), from its stats page. */
  serverStatus(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

/**
 * A real HAProxy (Debian's) in front of the given servers on loopback: round robin, a health
 * check on /api/health every 200 ms, X-Forwarded-For added, and the answering server named in an
 * `x-served-by` header so a test can tell who answered.
 */
export async function startHaproxy(servers: Record<string, number>): Promise<Haproxy> {
  const [port, statsPort] = [await freePort(), await freePort()];
  const folder = mkdtempSync(path.join(tmpdir(), 'corto-haproxy-'));
  const file = path.join(folder, 'haproxy.cfg');
  writeFileSync(
    file,
    [
      'global',
      '  maxconn 2000',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 30s',
      '  timeout server 30s',
      '  option forwardfor',
      '  option redispatch',
      '  retries 3',
      'frontend web',
      `  bind 127.0.0.1:${port}`,
      '  default_backend corto',
      'backend corto',
      '  balance roundrobin',
      '  option httpchk GET /api/health',
      '  http-check expect status 200',
      '  http-response set-header x-served-by %s',
      '  default-server inter 200ms fall 2 rise 2',
      ...Object.entries(servers).map(([name, serverPort]) => `  server ${name} 127.0.0.1:${serverPort} check`),
      'listen stats',
      `  bind 127.0.0.1:${statsPort}`,
      '  stats enable',
      '  stats uri /stats',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
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
    return Object.fromEntries(lines.filter((row) => row[0] === 'corto' && row[1] && row[1] in servers).map((row) => [row[1], row[status] ?? '']));
  };
  // Ready once both servers are seen up.
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${output}`);
    const states = await serverStatus().catch(() => ({}) as Record<string, string>);
    if (Object.keys(servers).every((name) => states[name] === 'UP')) break;
    if (attempt > 200) throw new Error(`haproxy not ready: ${JSON.stringify(states)} ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    serverStatus,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
