import pino from 'pino';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openScratchDatabase } from '../test/test-app';
import { migrateToLatest } from './migrate';
import { openDatabaseReader } from './database-reader';
import { PAGE_CACHE_KIB, SEARCH_PAGE_CACHE_KIB } from './sqlite-connection';

// better-sqlite3's build would give each connection a 16 MB page cache; a serving instance's
// connections keep the smaller one (see sqlite-connection.ts).
describe('the embedded database connections', () => {
  it('keep a page cache of PAGE_CACHE_KIB on the event loop and a reader thread, the one a search reader is given on its', async () => {
    const scratch = await openScratchDatabase('sqlite');
    const reader = openDatabaseReader(scratch.database, pino({ level: 'silent' }), 'test');
    const searching = openDatabaseReader(scratch.database, pino({ level: 'silent' }), 'search', { pageCacheKib: SEARCH_PAGE_CACHE_KIB });
    try {
      await migrateToLatest(scratch.database.db);
      const cacheSize = sql<{ cache_size: number }>`select cache_size from pragma_cache_size`;
      const { rows } = await cacheSize.execute(scratch.database.db);
      expect(rows[0]!.cache_size).toBe(-PAGE_CACHE_KIB);
      const onReader = { compile: () => cacheSize.compile(scratch.database.db) };
      expect(await reader.rows(onReader)).toEqual([{ cache_size: -PAGE_CACHE_KIB }]);
      expect(await searching.rows(onReader)).toEqual([{ cache_size: -SEARCH_PAGE_CACHE_KIB }]);
      expect(PAGE_CACHE_KIB).toBeLessThan(SEARCH_PAGE_CACHE_KIB);
    } finally {
      await reader.close();
      await searching.close();
      await scratch.close();
    }
  });
});
