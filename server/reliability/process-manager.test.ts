import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server';
import { freePort, npmStartFlags, repoRoot } from '../../bench/lib/processes';
import { type DatabaseTarget, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { clickCount, insertLink } from '../redirect/redirect.test-support';
import { postgresSchema } from '../test/postgres-schema';
import { testDialects } from '../test/test-app';
import { redirectLoad } from './redirect-load';
import { until } from './server-process';

// What a process manager does to Corto: `npm start` stopped with SIGTERM, and deploy/corto.service's
// command line started and stopped as systemd does (no systemd runs here: the unit's ExecStart,
// Environment= and KillMode=mixed are applied by hand to a real process).

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm start', () => {
  const folders: string[] = [];
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('starts on the build that is there, without rebuilding, and SIGTERM reaches node', async () => {
    // The project's package.json and prestart script, with a stand-in build: a server that notes
    // its pid and whether SIGTERM reached it.
    const folder = mkdtempSync(path.join(tmpdir(), 'corto-npm-start-'));
    folders.push(folder);
    copyFileSync(path.join(repoRoot, 'package.json'), path.join(folder, 'package.json'));
    mkdirSync(path.join(folder, 'scripts'));
    copyFileSync(path.join(repoRoot, 'scripts/build-if-missing.js'), path.join(folder, 'scripts/build-if-missing.js'));
    mkdirSync(path.join(folder, 'dist/server'), { recursive: true });
    mkdirSync(path.join(folder, 'dist/web'), { recursive: true });
    writeFileSync(path.join(folder, 'dist/web/index.html'), '<!doctype html>');
    writeFileSync(
      path.join(folder, 'dist/server/main.js'),
      [
        "import { writeFileSync } from 'node:fs';",
        "process.on('SIGTERM', () => { writeFileSync('sigterm', 'drained'); process.exit(0); });",
        "writeFileSync('pid', String(process.pid));",
        'setInterval(() => {}, 1000);',
      ].join('\n'),
    );
    const npm = spawn('npm', ['start'], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(npm);
    let output = '';
    npm.stdout.on('data', (chunk) => (output += chunk));
    npm.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
    await until(() => existsSync(path.join(folder, 'pid')) || npm.exitCode !== null, 'the server started by npm start', { limitMs: 30_000 });
    expect(output).not.toMatch(/> corto@[^ ]+ build/);
    const serverPid = Number(readFileSync(path.join(folder, 'pid'), 'utf8'));

    npm.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(readFileSync(path.join(folder, 'sigterm'), 'utf8')).toBe('drained');
    expect(alive(serverPid), 'node left running after npm stopped').toBe(false);
  }, 60_000);
});

/** deploy/corto.service's [Service] settings, each key with all its values. */
function serviceSettings(): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let inService = false;
  for (const line of readFileSync(path.join(repoRoot, 'deploy/corto.service'), 'utf8').split('\n')) {
    if (line.startsWith('[')) inService = line.trim() === '[Service]';
    const match = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (inService && match) settings.set(match[1]!, [...(settings.get(match[1]!) ?? []), match[2]!]);
  }
  return settings;
}

const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
if (!hasSystemdAnalyze) console.warn('process-manager.test: systemd-analyze is not installed, deploy/corto.service not verified by it');

describe('deploy/corto.service', () => {
  const unit = serviceSettings();

  it.skipIf(!hasSystemdAnalyze)('passes systemd-analyze verify', () => {
    const verified = spawnSync('systemd-analyze', ['verify', path.join(repoRoot, 'deploy/corto.service')], { encoding: 'utf8' });
    expect(verified.status, `${verified.stdout}${verified.stderr}`).toBe(0);
  });

  it('runs node itself, stopped with SIGTERM to node alone, with time to drain', () => {
    const [node, ...args] = unit.get('ExecStart')![0]!.split(' ');
    expect(path.basename(node!)).toBe('node');
    expect(args.at(-1)).toBe('dist/server/main.js');
    // Node's own flags, the same as `npm start`'s (none today), so that a V8 setting reaches both.
    expect(args.slice(0, -1)).toEqual(npmStartFlags());
    expect(unit.get('KillMode')).toEqual(['mixed']);
    expect(unit.get('KillSignal')).toEqual(['SIGTERM']);
    expect(Number(unit.get('TimeoutStopSec')?.[0])).toBeGreaterThanOrEqual(10);
  });

  describe.each(testDialects)('its command line on %s, stopped under load', (dialect) => {
    let bundle = '';
    const folders: string[] = [];
    let server: ChildProcess | undefined;
    let dropSchema: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      // The production bundle, built as `npm run build:server` builds it, inside the repository
      // (its packages resolve from node_modules) but not in dist/, which other tests may share.
      mkdirSync(path.join(repoRoot, 'bench/results'), { recursive: true });
      const outdir = mkdtempSync(path.join(repoRoot, 'bench/results/unit-'));
      folders.push(outdir);
      await buildServer(outdir);
      bundle = path.relative(repoRoot, path.join(outdir, 'main.js'));
    }, 120_000);
    afterEach(() => {
      if (server?.exitCode === null) server.kill('SIGKILL');
    });
    afterAll(async () => {
      await dropSchema?.();
      for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    });

    it('writes every click it answered before it exits', async () => {
      // %S (systemd's state folder, /var/lib) becomes a folder of the test's.
      const state = mkdtempSync(path.join(tmpdir(), 'corto-unit-'));
      folders.push(state);
      const environment = Object.fromEntries(
        (unit.get('Environment') ?? []).map((assignment) => {
          const [key, ...value] = assignment.replaceAll('%S', state).split('=');
          return [key!, value.join('=')];
        }),
      );
      expect(environment).toMatchObject({ NODE_ENV: 'production', DATA_DIR: path.join(state, 'corto') });
      mkdirSync(environment.DATA_DIR!, { recursive: true });

      let target: DatabaseTarget = { kind: 'sqlite', dataDir: environment.DATA_DIR! };
      let databaseUrl = '';
      if (dialect === 'postgres') {
        const { schema, urlWithSchema, drop } = await postgresSchema(process.env.TEST_DATABASE_URL!);
        target = { kind: 'postgres', url: process.env.TEST_DATABASE_URL!, schema };
        databaseUrl = urlWithSchema;
        dropSchema = drop;
      }
      const withDb = async <T>(use: (db: ReturnType<typeof openDatabase>['db']) => Promise<T>) => {
        const handle = openDatabase(target);
        try {
          return await use(handle.db);
        } finally {
          await handle.close();
        }
      };
      const link = await withDb(async (db) => {
        await migrateToLatest(db);
        return insertLink(db);
      });

      // What /etc/corto/corto.env would hold; the unit's own Environment= on top.
      const port = await freePort();
      const [, ...args] = unit.get('ExecStart')![0]!.split(' ');
      server = spawn(process.execPath, args.map((arg) => (arg === 'dist/server/main.js' ? bundle : arg)), {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH,
          HOST: '127.0.0.1',
          PORT: String(port),
          PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
          DATABASE_URL: databaseUrl,
          LOG_LEVEL: 'warn',
          // A slow timer: the clicks are still queued when the signal comes, so only the drain saves them.
          CLICK_FLUSH_MS: '5000',
          ...environment,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      server.stdout?.on('data', (chunk) => (output += chunk));
      server.stderr?.on('data', (chunk) => (output += chunk));
      const running = server;
      const exited = new Promise<number | null>((resolve) => running.on('exit', (code) => resolve(code)));
      await until(
        async () => {
          if (running.exitCode !== null) throw new Error(`the server exited: ${output}`);
          return fetch(`http://127.0.0.1:${port}/api/health`).then((response) => response.ok, () => false);
        },
        'the server listening',
        { limitMs: 60_000 },
      );

      const load = redirectLoad(() => `http://127.0.0.1:${port}/${link.shortUrl}`, 16);
      await until(() => load.tally.redirects >= 300, '300 redirects answered');
      // KillMode=mixed: SIGTERM to the main process only; SIGKILL to whatever is left after TimeoutStopSec.
      running.kill('SIGTERM');
      const stopLimitMs = Number(unit.get('TimeoutStopSec')![0]) * 1000;
      const killer = setTimeout(() => running.kill('SIGKILL'), stopLimitMs);
      const code = await exited;
      clearTimeout(killer);
      const tally = await load.stop();
      expect(code, output).toBe(0);

      const counted = await withDb((db) => clickCount(db, link.id));
      const rows = await withDb(async (db) => Number((await db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).where('url_id', '=', link.id).executeTakeFirstOrThrow()).n));
      expect(tally.redirects).toBeGreaterThanOrEqual(300);
      expect(rows).toBe(tally.redirects);
      expect(counted).toBe(tally.redirects);
    }, 180_000);
  });
});
