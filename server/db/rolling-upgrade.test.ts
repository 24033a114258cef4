import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, repoRoot } from '../../bench/lib/processes';
import { runCli } from '../cli/cli.test-support';
import { type ProcessDatabase, processDatabase, startServer, until, withDatabase } from '../reliability/server-process';
import type { DatabaseHandle } from './database';
import { migrateTo, migrateToLatest } from './migrate';

// A rolling upgrade and its rollback as an operator meets them: an instance of the older version
// (re)starting on the schema the newer one migrated, and the command line beside it.

const dialects = process.env.TEST_DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

const applied = (handle: DatabaseHandle) =>
  sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db).then(({ rows }) => rows.map((row) => row.name));

/** What a newer version would leave: one more migration applied (an added column), marked or not compatible. */
async function newerVersionMigrated(handle: DatabaseHandle, compatible: boolean): Promise<void> {
  await migrateToLatest(handle.db);
  await sql`alter table urls add column newer_note varchar(40)`.execute(handle.db);
  await sql`insert into kysely_migration (name, timestamp) values ('9001-newer-note', ${new Date().toISOString()})`.execute(handle.db);
  await sql`insert into corto_migration_compat (name, compatible_with_previous) values ('9001-newer-note', ${compatible ? 1 : 0})`.execute(handle.db);
}

describe.each(dialects)('an upgrade on %s', { timeout: 60_000 }, (dialect) => {
  let database: ProcessDatabase;
  afterEach(async () => {
    await database?.drop();
  });

  it('an older version starts on a schema ahead of it by migrations marked compatible, and says so', async () => {
    database = await processDatabase(dialect);
    await withDatabase(database, (handle) => newerVersionMigrated(handle, true));
    const server = await startServer(database);
    try {
      expect((await fetch(`http://127.0.0.1:${server.port}/api/health`)).status).toBe(200);
      await until(() => server.output().includes('9001-newer-note'), 'the warning naming the newer migration');
    } finally {
      await server.stop();
    }
  });

  it('refuses a schema ahead by a migration not marked compatible, naming it', async () => {
    database = await processDatabase(dialect);
    await withDatabase(database, (handle) => newerVersionMigrated(handle, false));
    await expect(startServer(database)).rejects.toThrow(/migración 9001-newer-note de una versión más nueva/);
  });

  it('logs each migration it applies', async () => {
    database = await processDatabase(dialect);
    await withDatabase(database, (handle) => migrateTo(handle.db, '0014-operator'));
    const server = await startServer(database, { LOG_LEVEL: 'info' });
    await server.stop();
    for (const name of ['0015-trigram-search', '0016-click-batches']) {
      expect(server.output()).toMatch(new RegExp(`"migration":"${name}".*"msg":"migration applied"`));
    }
    expect(server.output()).not.toContain('"migration":"0014-operator"');
  });

  it('the command line never migrates (an older server may be running on it): it refuses and names what is missing', async () => {
    database = await processDatabase(dialect);
    await withDatabase(database, (handle) => migrateTo(handle.db, '0015-trigram-search'));
    const env = { DATA_DIR: database.dataDir, DATABASE_URL: database.postgresUrl() };
    const result = await runCli(['reset-link', 'nadie@corto.test'], env);
    expect(result.code).toBe(1);
    expect(result.output).toContain('faltan 0016-click-batches');
    expect(await withDatabase(database, applied)).not.toContain('0016-click-batches');

    // `corto migrate` does it on purpose, and then the commands run.
    const migrated = await runCli(['migrate'], env);
    expect(migrated).toMatchObject({ code: 0, output: expect.stringContaining('Migración aplicada: 0016-click-batches') });
    expect(await runCli(['reset-link', 'nadie@corto.test'], env)).toMatchObject({ output: expect.stringContaining('No hay ninguna cuenta') });
  });
});

/**
 * The release before this tree, from git: CORTO_PREVIOUS_RELEASE (a tag or commit) or HEAD~1.
 * Without that history (a shallow clone), the test says why it is skipped.
 */
function previousRelease(): { sha: string } | { skip: string } {
  const ref = process.env.CORTO_PREVIOUS_RELEASE ?? 'HEAD~1';
  try {
    const sha = execFileSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: repoRoot, encoding: 'utf8' }).trim();
    return { sha };
  } catch {
    return { skip: `skipped: git has no ${ref} here (a shallow clone? fetch with --unshallow, or set CORTO_PREVIOUS_RELEASE)` };
  }
}

const previous = previousRelease();
if ('skip' in previous) console.warn(`rolling-upgrade.test: the previous release's bundle ${previous.skip}`);

describe.each(dialects)('the previous release on %s', (dialect) => {
  it.skipIf('skip' in previous)(
    `built from git (${'sha' in previous ? previous.sha.slice(0, 12) : 'unavailable'}), starts and serves on the schema this version migrated`,
    async () => {
      const tree = await mkdtemp(path.join(tmpdir(), 'corto-previous-'));
      const database = await processDatabase(dialect);
      try {
        execFileSync('sh', ['-c', `git archive --format=tar ${'sha' in previous ? previous.sha : ''} | tar -x -C "${tree}"`], { cwd: repoRoot });
        await symlink(path.join(repoRoot, 'node_modules'), path.join(tree, 'node_modules'));
        execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts'], { cwd: tree, stdio: 'pipe' });

        await withDatabase(database, (handle) => migrateToLatest(handle.db));
        const port = await freePort();
        const child = spawn(process.execPath, ['dist/server/main.js'], {
          cwd: tree,
          env: {
            ...process.env,
            HOST: '127.0.0.1',
            PORT: String(port),
            LOG_LEVEL: 'warn',
            DATA_DIR: database.dataDir,
            DATABASE_URL: database.postgresUrl(),
          },
        });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        try {
          await until(
            () => {
              if (child.exitCode !== null) throw new Error(`the previous release exited: ${output}`);
              return fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
            },
            'the previous release serving',
          );
          // It answers from the database: an unknown short address is looked up and not found.
          expect((await fetch(`http://127.0.0.1:${port}/no-existe-123`, { redirect: 'manual' })).status).toBe(404);
        } finally {
          child.kill('SIGTERM');
          await new Promise((resolve) => child.once('exit', resolve));
        }
      } finally {
        await database.drop();
        await rm(tree, { recursive: true, force: true });
      }
    },
    90_000,
  );
});
