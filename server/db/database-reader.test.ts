import { sql } from 'kysely';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../reliability/server-process';
import { createTestApp, openScratchDatabase, type TestApp, testDialects } from '../test/test-app';
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

describe('database reader on the embedded database', () => {
  /** A reader whose log lines (debug and up) are kept, to see its thread start and end. */
  async function loggedReader(idleMs: number) {
    const scratch = await openScratchDatabase('sqlite');
    const lines: Array<{ msg: string }> = [];
    const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as { msg: string }) });
    const reader = openDatabaseReader(scratch.database, log, 'test', { idleMs });
    const said = (message: string) => lines.filter((line) => line.msg === message).length;
    return { scratch, reader, said, close: async () => (await reader.close(), await scratch.close()) };
  }
  const one = (reader: DatabaseReader) => reader.rows(reader.db.selectNoFrom(sql<number>`1`.as('one')));

  it('ends its thread after idleMs without a read, and starts another for the next read', async () => {
    const { reader, said, close } = await loggedReader(100);
    try {
      expect(await one(reader)).toEqual([{ one: 1 }]);
      expect(said('test reader thread started')).toBe(1);
      await until(() => said('test reader thread ended, idle') === 1, 'the idle thread to end', { limitMs: 5000, everyMs: 20 });
      expect(await one(reader)).toEqual([{ one: 1 }]);
      expect(said('test reader thread started')).toBe(2);
    } finally {
      await close();
    }
  });

  it('keeps its thread while reads come closer together than idleMs, and through a read longer than it', async () => {
    const { reader, said, close } = await loggedReader(300);
    try {
      for (let i = 0; i < 8; i++) {
        expect(await one(reader)).toEqual([{ one: 1 }]);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // A read of several hundred ms (counting to 3,000,000), still answered by the same thread.
      const counted = sql<number>`(with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000000) select count(*) from n)`;
      expect(await reader.rows(reader.db.selectNoFrom(counted.as('count')))).toEqual([{ count: 3_000_000 }]);
      expect(said('test reader thread started')).toBe(1);
      expect(said('test reader thread ended, idle')).toBe(0);
    } finally {
      await close();
    }
  });
});
