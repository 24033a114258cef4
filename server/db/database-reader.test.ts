import { sql } from 'kysely';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../reliability/server-process';
import { createTestApp, openScratchDatabase, type TestApp, testDialects } from '../test/test-app';
import { type DatabaseReader, OVERFLOW_AFTER_MS, openDatabaseReader } from './database-reader';

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

  it('shares one thread among the readers of a database opened with the same settings, until the last one closes', async () => {
    const { scratch, reader: links, said, close } = await loggedReader(60_000);
    const log = pino({ level: 'silent' });
    const stats = openDatabaseReader(scratch.database, log, 'stats', { idleMs: 60_000 });
    const otherSettings = openDatabaseReader(scratch.database, log, 'search', { idleMs: 60_000, pageCacheKib: 16_000 });
    try {
      expect(await one(links)).toEqual([{ one: 1 }]);
      expect(await one(stats)).toEqual([{ one: 1 }]);
      // One thread, named for both in its log lines; other settings, a thread of their own with its page cache.
      expect(said('test+stats reader thread started')).toBe(1);
      expect(await stats.rows(stats.db.selectNoFrom(sql<number>`(select cache_size from pragma_cache_size)`.as('size')))).toEqual([{ size: -2000 }]);
      expect(await otherSettings.rows(otherSettings.db.selectNoFrom(sql<number>`(select cache_size from pragma_cache_size)`.as('size')))).toEqual([{ size: -16_000 }]);
      await links.close();
      // Closed by one of its readers, the thread goes on for the other.
      expect(await one(stats)).toEqual([{ one: 1 }]);
      expect(said('test+stats reader thread started')).toBe(1);
    } finally {
      await stats.close();
      await otherSettings.close();
      await close();
    }
  });

  it('sends a read to a second thread once the first has been on one read longer than OVERFLOW_AFTER_MS, not before', async () => {
    const { reader, said, close } = await loggedReader(60_000);
    try {
      const counted = sql<number>`(with recursive n(i) as (select 1 union all select i + 1 from n where i < 20000000) select count(*) from n)`;
      const settled = (promise: Promise<unknown>) => {
        let done = false;
        void promise.then(() => (done = true));
        return () => done;
      };
      const long = reader.rows(reader.db.selectNoFrom(counted.as('count')));
      const longDone = settled(long);
      // Asked at once: the first thread is not yet held, so this read waits its turn behind the count.
      const behind = one(reader);
      await new Promise((resolve) => setTimeout(resolve, OVERFLOW_AFTER_MS + 50));
      expect(longDone()).toBe(false);
      expect(await one(reader)).toEqual([{ one: 1 }]);
      expect(longDone()).toBe(false);
      expect(said('test (overflow) reader thread started')).toBe(1);
      expect(await behind).toEqual([{ one: 1 }]);
      expect(longDone()).toBe(true);
      expect(await long).toEqual([{ count: 20_000_000 }]);
      expect(said('test reader thread started')).toBe(1);
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
