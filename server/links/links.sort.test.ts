import { linkMessages as m } from '@common/links/link-messages';
import type { LinkList } from '@common/links/link-schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { createLinkAs } from './links.test-support';
import { sortColumns, tagWalk, workspaceLinksPageQuery } from './links.queries';
import { personalWorkspaceIdOf } from '../workspaces/personal-workspace';

// Each sort, each direction, walked two links a page: every link once, in the right order, with
// ties (same clicks, same date, same title) broken by id in the sort's direction.
const seed = [
  { title: 'delta', clicks: 5, minute: 3 },
  { title: 'Alfa', clicks: 0, minute: 1 },
  { title: 'charlie', clicks: 5, minute: 3 },
  { title: 'bravo', clicks: 9, minute: 2 },
  { title: 'alfa', clicks: 1, minute: 5 },
  { title: 'Eco', clicks: 0, minute: 4 },
  { title: 'foxtrot', clicks: 5, minute: 6 },
];

describe.each(testDialects)('GET /api/links sorted on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  let userId: number;
  let rows: { id: number; title: string; clicks: number; created: number; key: string; tagged: boolean }[];
  beforeEach(async () => {
    t = await createTestApp(dialect);
    const registered = await registerUser(t.app);
    ({ cookie } = registered);
    userId = registered.user.id;
    rows = [];
    for (const [i, { title, clicks, minute }] of seed.entries()) {
      const tagged = i % 2 === 0;
      const link = await createLinkAs(t.app, cookie, { title, tags: tagged ? ['par'] : [] });
      const created = Date.UTC(2026, 0, 1, 0, minute);
      await t.database.db.updateTable('urls').set({ click_count: clicks, created_at: created }).where('id', '=', link.id).execute();
      rows.push({ id: link.id, title, clicks, created, key: title.toLowerCase(), tagged });
    }
    // Another user's links never show.
    await createLinkAs(t.app, (await registerUser(t.app)).cookie, { title: 'ajeno', tags: ['par'] });
  });
  afterEach(async () => t.close());

  const walk = async (query: string) => {
    const titles: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const response = await t.app.inject({ method: 'GET', url: `/api/links?limit=2&${query}${cursor ? `&cursor=${cursor}` : ''}`, headers: { cookie } });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json() as LinkList;
      titles.push(...body.links.map((link) => `${link.title}#${link.id}`));
      cursor = body.nextCursor;
      if (!cursor) return titles;
    }
    throw new Error('more pages than links');
  };
  const expected = (value: (row: (typeof rows)[number]) => number | string, order: 'asc' | 'desc', only = rows) => {
    const sign = order === 'asc' ? 1 : -1;
    return [...only]
      .sort((a, b) => {
        const [x, y] = [value(a), value(b)];
        return sign * (x < y ? -1 : x > y ? 1 : a.id - b.id);
      })
      .map((row) => `${row.title}#${row.id}`);
  };

  for (const order of ['asc', 'desc'] as const) {
    it(`pages through every link by date, clicks and title, ${order}`, async () => {
      expect(await walk(`sort=created&order=${order}`)).toEqual(expected((row) => row.created, order));
      expect(await walk(`sort=clicks&order=${order}`)).toEqual(expected((row) => row.clicks, order));
      expect(await walk(`sort=title&order=${order}`)).toEqual(expected((row) => row.key, order));
    });

    it(`sorts within a tag and a search, ${order}`, async () => {
      const tagged = rows.filter((row) => row.tagged);
      expect(await walk(`tag=par&sort=clicks&order=${order}`)).toEqual(expected((row) => row.clicks, order, tagged));
      expect(await walk(`tag=PAR&sort=title&order=${order}`)).toEqual(expected((row) => row.key, order, tagged));
      const withA = rows.filter((row) => row.key.includes('a'));
      expect(await walk(`q=a&sort=created&order=${order}`)).toEqual(expected((row) => row.created, order, withA));
    });
  }

  it('finds the same links of a tag whether it walks the sort index or reads the tag first', async () => {
    const { db } = t.database;
    const workspaceId = await personalWorkspaceIdOf(db, userId);
    const tag = await db.selectFrom('tags').select('id').where('workspace_id', '=', workspaceId).where('name_key', '=', 'par').executeTakeFirstOrThrow();
    for (const sort of Object.keys(sortColumns) as (keyof typeof sortColumns)[]) {
      for (const order of ['asc', 'desc'] as const) {
        const page = async (walk: boolean) =>
          (await workspaceLinksPageQuery(db, workspaceId, { limit: 3, sort, order, tag: { id: Number(tag.id), walk } }).execute()).map((row) => row.id);
        const [walked, read] = [await page(true), await page(false)];
        expect(walked).toHaveLength(3);
        expect(walked, `${sort} ${order}`).toEqual(read);
      }
    }
    // A tag on most links is walked; one on a few is read first.
    expect(tagWalk(4_000, 100_000, 51)).toBe(true);
    expect(tagWalk(100, 100_000, 51)).toBe(false);
  });

  it('is newest first without sort or order, as before', async () => {
    expect(await walk('')).toEqual(expected((row) => row.created, 'desc'));
  });

  it('refuses an unknown sort or order, and a cursor made for another sort, in Spanish', async () => {
    const get = (query: string) => t.app.inject({ method: 'GET', url: `/api/links?${query}`, headers: { cookie } });
    expect((await get('sort=fecha')).json().error.fields.sort).toEqual([m.sortInvalid]);
    expect((await get('order=arriba')).json().error.fields.order).toEqual([m.orderInvalid]);
    const titleCursor = ((await get('sort=title&limit=1')).json() as LinkList).nextCursor!;
    const wrong = await get(`sort=clicks&cursor=${titleCursor}`);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.cursor).toEqual([m.cursorInvalid]);
  });
});
