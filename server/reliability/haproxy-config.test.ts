import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Started } from '../../bench/lib/processes';
import { migrateToLatest } from '../db/migrate';
import { agents, insertLink } from '../redirect/redirect.test-support';
import { checkHaproxyConfig, type Haproxy, haproxyConfig, hasHaproxy, startHaproxy } from '../test/haproxy';
import { type ProcessDatabase, processDatabase, startServer, until, withDatabase } from './server-process';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

// deploy/haproxy.cfg as shipped (compose.yaml mounts it), run by Debian's HAProxy in front of real
// Corto processes: what an operator meets when an instance or the database is away.

if (!hasHaproxy) console.warn('haproxy-config.test skipped: haproxy is not installed (apt-get install -y haproxy)');

const visit = (url: string) => fetch(url, { redirect: 'manual', headers: { 'user-agent': agents.desktop } });

describe.skipIf(!hasHaproxy)('deploy/haproxy.cfg', () => {
  let database: ProcessDatabase | undefined;
  let relay: TcpProxy | undefined;
  let server: Started | undefined;
  let haproxy: Haproxy | undefined;
  afterEach(async () => {
    await haproxy?.stop();
    relay?.resume();
    await server?.stop('SIGKILL');
    await relay?.close();
    await database?.drop();
    [database, relay, server, haproxy] = [undefined, undefined, undefined, undefined];
  });

  /** A database with one link, then a Corto process on it (through a TCP relay when on PostgreSQL). */
  async function instance(dialect: 'sqlite' | 'postgres', env: Record<string, string> = {}) {
    database = await processDatabase(dialect);
    const link = await withDatabase(database, async ({ db }) => {
      await migrateToLatest(db);
      return insertLink(db);
    });
    if (dialect === 'postgres') {
      const real = new URL(process.env.TEST_DATABASE_URL!);
      relay = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
      env = { DATABASE_URL: database.postgresUrl({ host: '127.0.0.1', port: relay.port }), ...env };
    }
    server = await startServer(database, env);
    return { link, port: server.port };
  }

  it('passes haproxy -c on its own, with instances whose names do not resolve', () => {
    // compose.yaml's names (corto1, corto2), unknown on this machine: resolved at run time.
    const checked = checkHaproxyConfig();
    expect(checked.status, checked.output).toBe(0);
    const text = readFileSync(haproxyConfig, 'utf8');
    expect(text).toMatch(/^resolvers dns$/m);
    expect(text).toMatch(/init-addr last,libc,none/);
    expect(text).toMatch(/option httpchk GET \/api\/health$/m);
  });

  it('starts while an instance is down and serves through the other', async () => {
    const { link, port } = await instance('sqlite');
    haproxy = await startHaproxy({ corto1: port, corto2: 'corto-caido.invalid:3000' }, { waitFor: ['corto1'] });
    const response = await visit(`${haproxy.url}/${link.shortUrl}`);
    expect(response.status).toBe(302);
    expect(response.headers.get('x-served-by')).toBe('corto1');
    expect((await haproxy.serverStatus()).corto2).not.toBe('UP');
  }, 60_000);

  it('keeps /metrics off the public front', async () => {
    const token = 'un-token-de-metricas-1234';
    const { port } = await instance('sqlite', { METRICS_TOKEN: token });
    haproxy = await startHaproxy({ corto1: port, corto2: 'corto-caido.invalid:3000' }, { waitFor: ['corto1'] });
    for (const path of ['/metrics', '/METRICS', '/%6Detrics', '/metrics/', '/metrics?x=1']) {
      expect((await fetch(`${haproxy.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).status, path).toBe(404);
    }
    // Prometheus, on the private network, scrapes the instance itself.
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  }, 60_000);

  it.runIf(process.env.TEST_DATABASE_URL)('keeps the instance in and cached redirects served while PostgreSQL is away', async () => {
    const { link, port } = await instance('postgres');
    haproxy = await startHaproxy({ corto1: port, corto2: 'corto-caido.invalid:3000' }, { waitFor: ['corto1'] });
    const address = `${haproxy.url}/${link.shortUrl}`;
    // Cached by the instance.
    expect((await visit(address)).status).toBe(302);

    await relay!.cut();
    // Readiness sees the outage; the proxy's check (liveness) does not take the instance out.
    await until(async () => (await fetch(`http://127.0.0.1:${port}/api/health/ready`)).status === 503, 'readiness reports the database away');
    const statuses: Record<number, number> = {};
    // Well past two failed checks (fall 2, every 200 ms).
    const deadline = Date.now() + 2000;
    while (Date.now() < deadline) {
      const status = (await visit(address)).status;
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    expect(Object.keys(statuses)).toEqual(['302']);
    expect((await haproxy.serverStatus()).corto1).toBe('UP');
    await relay!.restore();
  }, 60_000);
});
