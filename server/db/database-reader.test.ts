import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { type DatabaseReader, openDatabaseReader } from './database-reader';

describe.runIf(testDialects.includes('postgres'))('database reader on postgres', () => {
  let t: TestApp;
  let reader: DatabaseReader;
  beforeEach(async () => {
    t = await createTestApp('postgres');
    reader = openDatabaseReader(t.database, t.app.log, 'test');
  });
  afterEach(async () => {
    await reader.close();
    await t.close();
  });

  it("runs at most two reads at once, leaving the rest of the pool's connections to the API", async () => {
    const started = performance.now();
    const slow = () => reader.rows(reader.db.selectNoFrom(sql<string>`pg_sleep(0.1)`.as('slept')));
    await Promise.all(Array.from({ length: 6 }, slow));
    // Six reads of 100 ms, two at a time: three rounds.
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
  });
});
