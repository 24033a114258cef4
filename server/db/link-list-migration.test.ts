import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openScratchDatabase, testDialects } from '../test/test-app';
import { migrateTo, migrateToLatest } from './migrate';
import { searchText } from './search-text';

describe.each(testDialects)('migration 0005 (searchable titles, link totals) on %s', (dialect) => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema before this migration
  let db: Kysely<any>;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    const scratch = await openScratchDatabase(dialect);
    db = scratch.database.db;
    cleanup = scratch.close;
    await migrateTo(db, '0004-drop-clicks-time-index');
  });
  afterEach(async () => cleanup());

  it('fills the searchable copy of every existing title over several batches and each user\'s totals', async () => {
    const { id: userId } = await db
      .insertInto('users')
      .values({ email: 'ana@example.com', name: 'Ana', password_hash: 'x', profile_image: 'p.png', created_at: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const titles = ['Canción del verano', 'ÁRBOL', 'Niño ﬁel', ...Array.from({ length: 2500 }, (_, n) => `Enlace número ${n}`)];
    for (let from = 0; from < titles.length; from += 500) {
      await db
        .insertInto('urls')
        .values(
          titles.slice(from, from + 500).map((title, i) => ({
            user_id: userId,
            title,
            original_url: 'https://example.com/',
            short_url: `c${from + i}`,
            qr: `qr-c${from + i}.png`,
            created_at: from + i,
            click_count: i % 3,
          })),
        )
        .execute();
    }

    await migrateToLatest(db);
    const rows = await db.selectFrom('urls').select(['title', 'title_search']).orderBy('id').execute();
    expect(rows).toHaveLength(titles.length);
    expect(rows.slice(0, 3).map((row) => row.title_search)).toEqual(['cancion del verano', 'arbol', 'nino fiel']);
    expect(rows.filter((row) => row.title_search !== searchText(row.title))).toEqual([]);

    const clicks = titles.reduce((sum, _title, n) => sum + ((n % 500) % 3), 0);
    const totals = await db.selectFrom('user_link_totals').selectAll().execute();
    expect(totals.map((row) => ({ ...row, links: Number(row.links), clicks: Number(row.clicks) }))).toEqual([{ user_id: userId, links: titles.length, clicks }]);

    // No way back down from here: 0021-workspaces has none (its rollback is the backup taken before).
  });
});
