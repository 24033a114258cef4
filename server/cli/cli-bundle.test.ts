import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, realpath, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, repoRoot } from '../../bench/lib/processes';
import { buildServer } from '../../scripts/build-server';
import { until } from '../reliability/server-process';
import { makeImage } from '../test/test-users';

// The built install as an operator has it: package.json, node_modules and dist/server, nothing of
// the sources nor of scripts/ (the container's image holds no more).
let install: string;
let dataDir: string;

function run(command: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const child = spawn(command, args, { cwd: install, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

beforeAll(async () => {
  install = await mkdtemp(path.join(tmpdir(), 'corto-install-'));
  dataDir = path.join(install, 'data');
  await copyFile(path.join(repoRoot, 'package.json'), path.join(install, 'package.json'));
  await symlink(path.join(repoRoot, 'node_modules'), path.join(install, 'node_modules'));
  await mkdir(path.join(install, 'dist'));
  await buildServer(path.join(install, 'dist/server'));
}, 60_000);

afterAll(async () => {
  await rm(install, { recursive: true, force: true });
});

describe('the operator command line', () => {
  it('runs from the built bundle with `npm run corto`, without building anything (no scripts/ in the install)', async () => {
    const before = await realpath(path.join(install, 'dist/server'));
    const result = await run('npm', ['run', '--silent', 'corto', '--', '--help']);
    expect(result).toMatchObject({ code: 0, output: expect.stringContaining('backup') });
    expect(await realpath(path.join(install, 'dist/server'))).toBe(before);
  });

  it('runs as `node dist/server/corto.js` with no development tool on the PATH', async () => {
    const result = await run(process.execPath, ['dist/server/corto.js', '--help'], { PATH: '/nonexistent' });
    expect(result).toMatchObject({ code: 0, output: expect.stringContaining('to-postgres') });
  });
});

describe('a build beside a running server', () => {
  let server: ChildProcess | undefined;
  afterAll(() => {
    server?.kill('SIGKILL');
  });

  it('leaves the running build in place: a reader thread it starts after the build still loads', async () => {
    const port = await freePort();
    const running = await realpath(path.join(install, 'dist/server'));
    const files = async () =>
      Object.fromEntries(await Promise.all((await readdir(running)).map(async (name) => [name, (await stat(path.join(running, name))).ino] as const)));
    const before = await files();
    server = spawn(process.execPath, ['dist/server/main.js'], {
      cwd: install,
      env: { ...process.env, DATA_DIR: path.join(install, 'served'), DATABASE_URL: '', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' },
    });
    let output = '';
    server.stderr?.on('data', (chunk) => (output += chunk));
    const base = `http://127.0.0.1:${port}`;
    await until(() => fetch(`${base}/api/health`).then((r) => r.ok, () => false), 'the bundled server listening');

    // A new build lands while it serves (an upgrade, or the CLI of old).
    await buildServer(path.join(install, 'dist/server'));
    expect(await realpath(path.join(install, 'dist/server'))).not.toBe(running);
    expect(await files()).toEqual(before);

    // The links list is read on a reader thread, started at the first read: after the build.
    const form = new FormData();
    form.append('name', 'Operadora');
    form.append('email', `op-${Date.now()}@corto.test`);
    form.append('password', 'secreto-123');
    form.append('profileImage', new Blob([new Uint8Array(await makeImage())], { type: 'image/png' }), 'a.png');
    const registered = await fetch(`${base}/api/auth/register`, { method: 'POST', body: form });
    expect(registered.status).toBe(201);
    const cookie = registered.headers.getSetCookie().find((line) => line.startsWith('corto_session='))!.split(';')[0]!;
    const links = await fetch(`${base}/api/links`, { headers: { cookie } });
    expect({ status: links.status, output }).toEqual({ status: 200, output: '' });
  }, 60_000);
});
