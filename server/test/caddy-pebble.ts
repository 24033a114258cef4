import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { freePort, repoRoot } from '../../bench/lib/processes';

// Automatic HTTPS as an operator runs it: Debian's Caddy with the shipped deploy/Caddyfile, in
// front of a Corto, getting its certificates from Pebble (Debian's ACME test CA) instead of Let's
// Encrypt. Pebble skips the challenge itself (PEBBLE_VA_ALWAYS_VALID): no test name resolves here.

export const hasCaddyAndPebble = spawnSync('caddy', ['version']).status === 0 && spawnSync('pebble', ['-h']).status !== null && spawnSync('openssl', ['version']).status === 0;

/** The configuration the repository ships (compose.yaml mounts it): the tests run it, not a copy. */
export const caddyfile = path.join(repoRoot, 'deploy/Caddyfile');

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Who issued the certificate the visitor was shown. */
  issuer: string;
}

export interface TlsFront {
  /** Caddy's HTTPS port on loopback. */
  httpsPort: number;
  /** A GET over HTTPS to Caddy for `hostname` (SNI and Host), trusting only Pebble's root. */
  get(hostname: string, pathname: string): Promise<HttpsAnswer>;
  /** What Caddy logged: why a certificate was or was not obtained. */
  log(): string;
  stop(): Promise<void>;
}

interface Child {
  process: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

function startChild(command: string, args: string[], env: Record<string, string>): Child {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function waitUntil(what: string, ready: () => Promise<boolean>, child: Child): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (child.process.exitCode !== null) throw new Error(`${what} exited: ${child.output()}`);
    if (await ready().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} not ready: ${child.output()}`);
}

/** A TLS certificate for Pebble's own API (127.0.0.1), signed by a throwaway CA: written to `dir`. */
function makeApiCertificate(dir: string): { ca: string; cert: string; key: string } {
  const file = (name: string) => path.join(dir, name);
  const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Corto test CA']);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'api.key', '-out', 'api.csr', '-subj', '/CN=127.0.0.1']);
  execFileSync('sh', ['-c', 'printf "subjectAltName=IP:127.0.0.1,DNS:localhost\\n" > api.ext'], { cwd: dir });
  openssl(['x509', '-req', '-in', 'api.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'api.pem', '-days', '2', '-extfile', 'api.ext']);
  return { ca: file('ca.pem'), cert: file('api.pem'), key: file('api.key') };
}

/**
 * Pebble and Caddy (deploy/Caddyfile) in front of the Corto listening on `upstreamPort`, in a
 * folder of their own that stop() removes.
 */
export async function startTlsFront(upstreamPort: number): Promise<TlsFront> {
  const dir = await mkdtemp(path.join(tmpdir(), 'corto-tls-'));
  const api = makeApiCertificate(dir);
  const [acmePort, managementPort, httpPort, httpsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const pebbleConfig = path.join(dir, 'pebble.json');
  await writeFile(
    pebbleConfig,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: api.cert,
        privateKey: api.key,
        // Never used: the challenges are skipped.
        httpPort: 5002,
        tlsPort: 5001,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const apiCa = await readFile(api.ca, 'utf8');
  const pebble = startChild('pebble', ['-config', pebbleConfig], { PEBBLE_VA_ALWAYS_VALID: '1', PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' });
  const fetchPebble = (port: number, pathname: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: pathname, ca: apiCa }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  await waitUntil('pebble', async () => (await fetchPebble(acmePort, '/dir')).status === 200, pebble);

  // The test's own global options, imported by the shipped Caddyfile (CORTO_CADDY_OPTIONS).
  const options = path.join(dir, 'options.caddy');
  await writeFile(
    options,
    [
      `http_port ${httpPort}`,
      `https_port ${httpsPort}`,
      'admin off',
      `storage file_system ${path.join(dir, 'caddy-data')}`,
      `acme_ca https://127.0.0.1:${acmePort}/dir`,
      `acme_ca_root ${api.ca}`,
      '',
    ].join('\n'),
  );
  const caddy = startChild('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
    CORTO_CADDY_OPTIONS: options,
    CORTO_UPSTREAM: `127.0.0.1:${upstreamPort}`,
    // Caddy's autosave and default storage stay in the test's folder.
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    XDG_DATA_HOME: path.join(dir, 'data'),
    HOME: dir,
  });
  await waitUntil('caddy', async () => caddy.output().includes('serving initial configuration'), caddy);
  // Pebble makes a new root at each start: the one its certificates chain to.
  const roots = await fetchPebble(managementPort, '/roots/0');

  const get = (hostname: string, pathname: string) =>
    new Promise<HttpsAnswer>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: httpsPort, path: pathname, servername: hostname, headers: { host: hostname }, ca: roots.body, agent: false },
        (res) => {
          const certificate = (res.socket as TLSSocket).getPeerCertificate();
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, issuer: String(certificate.issuer?.CN ?? '') }));
        },
      );
      req.on('error', reject);
      req.end();
    });

  return {
    httpsPort,
    get,
    log: () => caddy.output(),
    async stop() {
      await caddy.stop();
      await pebble.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
