import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freePort, npmStartFlags, repoRoot, type Started } from '../../bench/lib/processes';
import { type ProcessDatabase, processDatabase, startServer } from './server-process';

// The Dockerfile and compose.yaml as shipped. No container runtime here: the image's health check
// command is run as Docker would run it, against a real server; compose.yaml is read as compose
// reads it (YAML with merge keys) and held to what a public deployment needs.

const dockerfile = readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8');

/** The HEALTHCHECK's CMD, in exec form: the argv Docker runs every interval. */
function healthCheckCommand(): string[] {
  const instruction = dockerfile.replace(/\\\n/g, ' ').split('\n').find((line) => line.startsWith('HEALTHCHECK '));
  const json = instruction?.slice(instruction.indexOf(' CMD ') + 5).trim();
  return JSON.parse(json ?? 'null') as string[];
}

/** Runs the health check with PORT set, as the container's environment has it: its exit code. */
function runHealthCheck(port: number): Promise<number | null> {
  const [command, ...args] = healthCheckCommand();
  const child = spawn(command!, args, { env: { PATH: process.env.PATH, PORT: String(port) }, stdio: 'ignore' });
  // Docker's --timeout.
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  return new Promise((resolve) => child.on('exit', (code) => (clearTimeout(timer), resolve(code))));
}

describe("the Dockerfile's health check", () => {
  let database: ProcessDatabase | undefined;
  let server: Started | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.drop();
  });

  it('starts no Node process, and passes only while /api/health answers 200', async () => {
    const command = healthCheckCommand();
    expect(path.basename(command[0]!)).not.toMatch(/^node/);
    expect(command.join(' ')).toContain('/api/health ');

    database = await processDatabase('sqlite');
    server = await startServer(database);
    expect(await runHealthCheck(server.port)).toBe(0);

    // Nothing listening, and a server that answers 503.
    expect(await runHealthCheck(await freePort())).not.toBe(0);
    const failing = createServer((_request, response) => response.writeHead(503).end('{}'));
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    try {
      expect(await runHealthCheck((failing.address() as { port: number }).port)).not.toBe(0);
    } finally {
      failing.close();
    }
  }, 60_000);

  it('runs node itself with the flags `npm start` gives it', () => {
    const instruction = dockerfile.split('\n').find((line) => line.startsWith('CMD '));
    const [node, ...args] = JSON.parse(instruction!.slice(4)) as string[];
    expect(node).toBe('node');
    expect(args).toEqual([...npmStartFlags(), 'dist/server/main.js']);
  });

  it('runs on a pinned release of a current Node LTS', () => {
    const image = /^ARG NODE_IMAGE=(.+)$/m.exec(dockerfile)?.[1];
    expect(image).toMatch(/^node:(2[4-9]|[3-9]\d)\.\d+\.\d+-[a-z]+-slim$/);
  });
});

interface ComposeService {
  image?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
  volumes?: string[];
  ports?: string[];
}

describe('compose.yaml', () => {
  const text = readFileSync(path.join(repoRoot, 'compose.yaml'), 'utf8');
  const compose = parse(text, { merge: true }) as { services: Record<string, ComposeService> };
  const services = compose.services;

  it('refuses to start without each secret instead of using a default', () => {
    // Compose's interpolations ('$${...}' is a dollar handed to the shell, not one of them).
    const secrets = [...text.matchAll(/(?<!\$)\$\{([A-Z0-9_]*(?:PASSWORD|SECRET|TOKEN)[A-Z0-9_]*)([^}]*)\}/g)];
    expect(secrets.length).toBeGreaterThan(0);
    for (const [whole, , rest] of secrets) expect(rest, whole).toMatch(/^:\?/);
  });

  it('protects /metrics with a token on every instance', () => {
    for (const name of ['corto1', 'corto2']) expect(services[name]?.environment?.METRICS_TOKEN, name).toMatch(/^\$\{METRICS_TOKEN:\?/);
  });

  it("gives the app its own store user, not the store's root credentials", () => {
    const app = services.corto1!.environment!;
    const store = services.minio!.environment!;
    expect(app.S3_ACCESS_KEY_ID).not.toBe(store.MINIO_ROOT_USER);
    expect(app.S3_SECRET_ACCESS_KEY).not.toContain('MINIO_ROOT_PASSWORD');
  });

  it('pins every image to a release', () => {
    for (const [name, service] of Object.entries(services)) {
      if (!service.image || name.startsWith('corto')) continue;
      expect(service.image, name).toMatch(/:(\d+\.\d+|RELEASE\.)/);
    }
  });

  it('starts the proxy on a healthy instance, with the shipped HAProxy configuration', () => {
    expect(services.proxy?.depends_on?.corto1?.condition).toBe('service_healthy');
    expect(services.proxy?.volumes).toContain('./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
  });

  it('puts Caddy in front with the shipped Caddyfile, its certificates kept in a volume, and the proxy reachable from this machine only', () => {
    expect(services.caddy?.volumes).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
    expect(services.caddy?.volumes?.some((volume) => volume.startsWith('caddy-data:/data'))).toBe(true);
    expect(services.caddy?.environment?.CORTO_UPSTREAM).toBe('proxy:8080');
    expect(services.proxy?.ports).toEqual(['127.0.0.1:8080:8080']);
    // Caddy, then HAProxy: both hops are believed, no more.
    for (const name of ['corto1', 'corto2']) expect(services[name]?.environment?.TRUST_PROXY, name).toBe('2');
  });

  it('gives the instances time to drain on stop', () => {
    for (const name of ['corto1', 'corto2']) expect(Number.parseInt(services[name]?.stop_grace_period ?? '0', 10), name).toBeGreaterThanOrEqual(30);
  });
});
