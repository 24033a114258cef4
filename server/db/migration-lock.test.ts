import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { until } from '../reliability/server-process';
import { postgresSchema } from '../test/postgres-schema';
import { openDatabase } from './database';
import { migrateToLatest } from './migrate';

// Several instances starting together on a fresh PostgreSQL database each run the migrations at
// start (server/main.ts): Kysely's migrator takes a PostgreSQL advisory lock (pg_advisory_xact_lock)
// around them, so one runs each migration and the others find them done.

/** The advisory lock id Kysely's PostgreSQL adapter migrates under (kysely/dist/.../postgres-adapter.js). */
const KYSELY_MIGRATION_LOCK = '3853314791062309107';

const url = process.env.TEST_DATABASE_URL;
if (!url) console.warn('migration-lock.test skipped: TEST_DATABASE_URL is unset');

describe.skipIf(!url)('migrations started by several instances at once', () => {
  it('run once each, under the advisory lock, and every instance starts', async () => {
    const { schema, drop } = await postgresSchema(url ?? '');
    // Four instances: four pools, four connections racing for the same migrations.
    const handles = Array.from({ length: 4 }, () => openDatabase({ kind: 'postgres', url: url ?? '', schema }));
    try {
      const [holder] = handles;
      // Kysely's migration lock, held here by a session of our own first: nobody migrates meanwhile.
      const lock = new pg.Client({ connectionString: url });
      await lock.connect();
      await lock.query(`select pg_advisory_lock(${KYSELY_MIGRATION_LOCK})`);
      const running = Promise.allSettled(handles.map((handle) => migrateToLatest(handle.db)));
      const tableNow = async () =>
        (await sql<{ found: string | null }>`select to_regclass(${`${schema}.urls`})::text as found`.execute(holder!.db)).rows[0]?.found ?? null;
      // Each instance has had time to take its connection and ask for the lock.
      await until(async () => Number((await lock.query(`select count(*) from pg_locks where locktype = 'advisory' and not granted`)).rows[0].count) >= 1, 'instances waiting on the lock');
      expect(await tableNow()).toBeNull();
      await lock.query(`select pg_advisory_unlock(${KYSELY_MIGRATION_LOCK})`);
      await lock.end();
      const outcomes = await running;
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
      const applied = await sql<{ name: string; times: string }>`
        select name, count(*)::text as times from ${sql.table(`${schema}.kysely_migration`)} group by name`.execute(holder!.db);
      expect(applied.rows.length).toBeGreaterThan(5);
      expect(applied.rows.every((row) => row.times === '1')).toBe(true);
      // And the schema is whole: the last migration's table answers.
      await sql`select count(*) from ${sql.table(`${schema}.urls`)}`.execute(holder!.db);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
      await drop();
    }
  });
});
