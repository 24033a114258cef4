import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/lib/processes';
import { type DatabaseTarget, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { agents, clickCount, insertLink } from '../redirect/redirect.test-support';
import { besideRunningServer } from '../reliability/server-process';
import { testDialects } from '../test/test-app';
import { postgresSchema } from '../test/postgres-schema';
import { entryArgs } from '../test/server-build';

// The real server process: requests in flight when SIGTERM arrives must all end up counted.

async function withDatabase<T>(target: DatabaseTarget, run: (db: ReturnType<typeof openDatabase>['db']) => Promise<T>) {
  const handle = openDatabase(target);
  try {
    return await run(handle.db);
  } finally {
    await handle.close();
  }
}

async function postgresTarget(): Promise<{ env: Record<string, string>; target: DatabaseTarget; drop(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL!;
  const { schema, urlWithSchema, drop } = await postgresSchema(url);
  return { env: { DATABASE_URL: urlWithSchema }, target: { kind: 'postgres', url, schema }, drop };
}

/** The server as `npm start` runs it, answering once /api/health does. */
async function startServer(running: ChildProcess[], dataDir: string, shortUrl: string, env: Record<string, string>) {
  const port = await freePort();
  // Node itself, never the tsx command: that one relays SIGTERM to its child and SIGKILLs it if the
  // child has not acknowledged within 30 ms, which a busy machine can miss.
  const child = spawn(process.execPath, entryArgs('main'), {
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', ...env },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  running.push(child);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, exited, url: `http://127.0.0.1:${port}/${shortUrl}`, output: () => output };
}

describe.each(testDialects)('stopping the server on %s', (dialect) => {
  const running: ChildProcess[] = [];
  afterEach(() => {
    for (const child of running) child.kill('SIGKILL');
  });

  /** A migrated database of this dialect with one link, for a server process. */
  async function databaseWithLink() {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'corto-shutdown-'));
    const pgSetup = dialect === 'postgres' ? await postgresTarget() : undefined;
    const target: DatabaseTarget = pgSetup?.target ?? { kind: 'sqlite', dataDir };
    const link = await withDatabase(target, async (db) => {
      await migrateToLatest(db);
      return insertLink(db);
    });
    return { dataDir, pgSetup, target, link };
  }

  it('loses no click when SIGTERM arrives while requests are in flight', async () => {
    const { dataDir, pgSetup, target, link } = await databaseWithLink();

    // A slow timer: the clicks are still queued when the signal comes, so only the drain saves them.
    const { child, exited, url } = await startServer(running, dataDir, link.shortUrl, { CLICK_FLUSH_MS: '5000', ...pgSetup?.env });

    let redirects = 0;
    let stopped = false;
    let signalled = false;
    const worker = async () => {
      while (!stopped) {
        try {
          const response = await fetch(url, { redirect: 'manual', headers: { 'user-agent': agents.desktop } });
          await response.arrayBuffer();
          if (response.status === 302) redirects += 1;
          // Once enough are in flight, stop the server in the middle of them.
          if (redirects === 300 && !signalled) {
            signalled = true;
            child.kill('SIGTERM');
          }
        } catch {
          if (signalled) stopped = true; // refused or cut: the server is going away
        }
      }
    };
    const workers = Promise.all(Array.from({ length: 32 }, worker));
    expect(await exited).toBe(0);
    stopped = true;
    await workers;

    expect(redirects).toBeGreaterThanOrEqual(300);
    const counted = await withDatabase(target, (db) => clickCount(db, link.id));
    const rows = await withDatabase(target, (db) =>
      db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).where('url_id', '=', link.id).executeTakeFirstOrThrow(),
    );
    await pgSetup?.drop();
    expect(counted).toBe(redirects);
    expect(Number(rows.n)).toBe(redirects);
  });

  it('keeps the clicks of a server killed soon after it started listening', async () => {
    const { dataDir, pgSetup, target, link } = await databaseWithLink();
    // Listening means the click writer's thread is ready: a click is on disk one flush after its
    // redirect, not only once the thread has finished starting (seconds on a busy machine).
    const { child, exited, url, output } = await startServer(running, dataDir, link.shortUrl, pgSetup?.env ?? {});
    const visits = 20;
    for (let i = 0; i < visits; i++) {
      const response = await fetch(url, { redirect: 'manual', headers: { 'user-agent': agents.desktop } });
      expect(response.status).toBe(302);
    }
    // CLICK_FLUSH_MS is 100; up to three seconds allow for a loaded machine (CI runs three suites
    // on two cores). The server is killed once all are counted, or when the three seconds are up.
    const deadline = Date.now() + 3000;
    const beside = besideRunningServer(target);
    let counted = 0;
    while (Date.now() < deadline) {
      counted = await withDatabase(beside, (db) => clickCount(db, link.id));
      if (counted === visits) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill('SIGKILL');
    await exited;

    counted = await withDatabase(target, (db) => clickCount(db, link.id));
    await pgSetup?.drop();
    expect(counted, output()).toBe(visits);
  });
});
