import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import type { LinkList } from '@common/links/link-schemas';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabaseReader } from '../db/database-reader';
import { READER_THREAD_NICE } from '../db/database-thread';
import { FEW_MATCHES } from '../db/trigram-search';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';
import { fewTitleMatches, insertLink, type ListOptions, workspaceLinksPageQuery, withTitleSearch } from './links.queries';
import { personalWorkspaceIdOf } from '../workspaces/personal-workspace';
import { createLinkAs } from './links.test-support';

/** `count` links of `userId` (in their personal workspace) written straight to the table, in batches, through the one row builder. */
async function seedLinks(t: TestApp, userId: number, count: number, title: (n: number) => string) {
  const start = Date.UTC(2025, 0, 1);
  const workspaceId = await personalWorkspaceIdOf(t.database.db, userId);
  for (let from = 0; from < count; from += 500) {
    const rows = [];
    for (let n = from; n < Math.min(count, from + 500); n += 1) {
      const code = `s${userId}x${n}`;
      rows.push(withTitleSearch({ workspace_id: workspaceId, user_id: userId, title: title(n), original_url: 'https://example.com/', custom_url: null, short_url: code, qr: `qr-${code}.png`, created_at: start + n * 1000 }));
    }
    await t.database.db.insertInto('urls').values(rows).execute();
  }
}

describe.each(testDialects)('title search on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  let userId: number;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    ({ cookie, user: { id: userId } } = await registerUser(t.app));
  });
  afterEach(async () => t.close());

  const titles = async (q: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/links?q=${encodeURIComponent(q)}`, headers: { cookie } });
    expect(response.statusCode).toBe(200);
    return (response.json() as LinkList).links.map((link) => link.title);
  };

  it('ignores accents and case both ways, and keeps % and _ literal', async () => {
    for (const title of ['Canción del verano', 'ÁRBOL genealógico', 'un arbol', 'Niño', '50% menos', '50 % más', 'guion_bajo', 'guion bajo']) {
      await createLinkAs(t.app, cookie, { title });
    }
    expect(await titles('cancion')).toEqual(['Canción del verano']);
    expect(await titles('CANCIÓN')).toEqual(['Canción del verano']);
    expect(await titles('arbol')).toEqual(['un arbol', 'ÁRBOL genealógico']);
    expect(await titles('ÁRBOL')).toEqual(['un arbol', 'ÁRBOL genealógico']);
    expect(await titles('genealogico')).toEqual(['ÁRBOL genealógico']);
    expect(await titles('nino')).toEqual(['Niño']);
    expect(await titles('0%')).toEqual(['50% menos']);
    expect(await titles('n_b')).toEqual(['guion_bajo']);
    expect(await titles('zapato')).toEqual([]);
  });

  it('matches terms shorter than a trigram too, by comparing titles', async () => {
    for (const title of ['Año nuevo', 'Cañón', 'Él y yo', 'Paz']) await createLinkAs(t.app, cookie, { title });
    expect(await titles('AÑ')).toEqual(['Cañón', 'Año nuevo']);
    expect(await titles('él')).toEqual(['Él y yo']);
    expect(await titles('Z')).toEqual(['Paz']);
    expect(await titles('qz')).toEqual([]);
  });

  it('finds a title as edited, and a deleted link no more, at once', async () => {
    const link = await createLinkAs(t.app, cookie, { title: 'Receta de tortilla' });
    await createLinkAs(t.app, cookie, { title: 'Otra receta' });
    expect(await titles('tortilla')).toEqual(['Receta de tortilla']);
    const edit = await t.app.inject({ method: 'PATCH', url: `/api/links/${link.id}`, headers: { cookie, ...sameOrigin }, payload: { title: 'Receta de PAELLA' } });
    expect(edit.statusCode).toBe(200);
    expect(await titles('tortilla')).toEqual([]);
    expect(await titles('paella')).toEqual(['Receta de PAELLA']);
    expect(await titles('receta')).toEqual(['Otra receta', 'Receta de PAELLA']);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/links/${link.id}`, headers: { cookie, ...sameOrigin } });
    expect(removed.statusCode).toBe(204);
    expect(await titles('paella')).toEqual([]);
    expect(await titles('receta')).toEqual(['Otra receta']);
  });

  it('keeps to the user: the same title of another user is never found', async () => {
    const other = await registerUser(t.app);
    await createLinkAs(t.app, other.cookie, { title: 'Informe anual' });
    await createLinkAs(t.app, cookie, { title: 'Informe mensual' });
    expect(await titles('informe')).toEqual(['Informe mensual']);
    expect(await titles('anual')).toEqual([]);
  });

  it("picks a page of matches from the workspace's index, without reading table rows to filter", async () => {
    const other = await registerUser(t.app);
    await seedLinks(t, userId, 2000, (n) => `Enlace ${n}`);
    await seedLinks(t, other.user.id, 2000, (n) => `Ajeno ${n}`);
    const query = workspaceLinksPageQuery(t.database.db, await personalWorkspaceIdOf(t.database.db, userId), { search: 'enlace 19', limit: 51 }).compile();
    if (dialect === 'sqlite') {
      await sql`analyze`.execute(t.database.db);
      const plan = await t.database.db.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` });
      // The matching ids come from the index alone, in its order (no sort of the workspace's links).
      expect(plan.rows.map((row) => row.detail)).toContain('SEARCH urls USING COVERING INDEX urls_workspace_id_created_at_title_idx (workspace_id=?)');
    } else {
      // Freshly written rows: vacuum sets the visibility map, as autovacuum would for an older table.
      await sql`vacuum analyze urls`.execute(t.database.db);
      const plan = await t.database.db.executeQuery<{ 'QUERY PLAN': string }>({ ...query, sql: `explain ${query.sql}` });
      const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
      // The matching ids come from the index alone, in its order: the page's limit sits right on it.
      expect(text).toMatch(/Limit .*\n\s*->\s+Index Only Scan Backward using urls_workspace_id_created_at_title_idx on urls/);
    }
    expect(await titles('enlace 1999')).toEqual(['Enlace 1999']);
  });
});

describe.each(testDialects)('link totals on %s', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
  });
  afterEach(async () => t.close());

  /** What the totals must always equal: the rows of the user's personal workspace, counted and summed. */
  const fromRows = async (userId: number) => {
    const row = await t.database.db
      .selectFrom('urls')
      .select((eb) => [eb.fn.countAll<number>().as('links'), eb.fn.sum<number | null>('click_count').as('clicks')])
      .where('workspace_id', '=', await personalWorkspaceIdOf(t.database.db, userId))
      .executeTakeFirstOrThrow();
    return { links: Number(row.links), clicks: Number(row.clicks ?? 0) };
  };
  const totalsOf = async (cookie: string) =>
    ((await t.app.inject({ method: 'GET', url: '/api/links?q=nada', headers: { cookie } })).json() as LinkList).totals;

  it('stay equal to the rows through creations, clicks, deletions, a change of workspace and a removed user', async () => {
    const ana = await registerUser(t.app);
    const bea = await registerUser(t.app);
    expect(await totalsOf(ana.cookie)).toEqual({ links: 0, clicks: 0 });
    const links = [];
    for (const title of ['Uno', 'Dos', 'Tres']) links.push(await createLinkAs(t.app, ana.cookie, { title }));
    await createLinkAs(t.app, bea.cookie, { title: 'De Bea' });
    // Real clicks, counted by the click writer.
    for (const link of [links[0]!, links[0]!, links[1]!]) {
      expect((await t.app.inject({ method: 'GET', url: `/${link.shortCode}`, headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0' } })).statusCode).toBe(302);
    }
    await t.app.appContext.clickWriter.flush();
    expect(await totalsOf(ana.cookie)).toEqual({ links: 3, clicks: 3 });

    expect((await t.app.inject({ method: 'DELETE', url: `/api/links/${links[0]!.id}`, headers: { cookie: ana.cookie, ...sameOrigin } })).statusCode).toBe(204);
    expect(await totalsOf(ana.cookie)).toEqual({ links: 2, clicks: 1 });
    const beaWorkspace = await personalWorkspaceIdOf(t.database.db, bea.user.id);
    await t.database.db.updateTable('urls').set({ workspace_id: beaWorkspace }).where('id', '=', links[1]!.id).execute();
    expect(await totalsOf(ana.cookie)).toEqual(await fromRows(ana.user.id));
    expect(await totalsOf(bea.cookie)).toEqual({ links: 2, clicks: 1 });
    expect(await totalsOf(bea.cookie)).toEqual(await fromRows(bea.user.id));

    await t.database.db.deleteFrom('users').where('id', '=', bea.user.id).execute();
    expect(await t.database.db.selectFrom('user_link_totals').select('user_id').execute()).toEqual([{ user_id: ana.user.id }]);
    const left = await t.database.db.selectFrom('workspace_link_totals').select('workspace_id').execute();
    expect(left.map((row) => Number(row.workspace_id))).toEqual([await personalWorkspaceIdOf(t.database.db, ana.user.id)]);
  });
});

describe('title search on sqlite, off the event loop', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp('sqlite');
  });
  afterEach(async () => t.close());

  it("runs on the reader thread's own connection, not on the event loop's", async () => {
    const { cookie, user } = await registerUser(t.app);
    await createLinkAs(t.app, cookie, { title: 'Guardado' });
    const { db } = t.database;
    // A link the event loop's connection can see but no other can: its transaction is still open.
    await sql`begin`.execute(db);
    try {
      await insertLink(db, { workspace_id: await personalWorkspaceIdOf(db, user.id), user_id: user.id, title: 'Sin guardar', original_url: 'https://example.com/', custom_url: null, short_url: 'singuardar', qr: 'qr-singuardar.png', created_at: Date.now() });
      for (const q of ['', '?q=guarda', '?q=sin']) {
        const response = await t.app.inject({ method: 'GET', url: `/api/links${q}`, headers: { cookie } });
        const body = response.json() as LinkList;
        expect(body.links.map((link) => link.title), q).toEqual(q === '?q=sin' ? [] : ['Guardado']);
        expect(body.totals.links, q).toBe(1);
      }
    } finally {
      await sql`rollback`.execute(db);
    }
  });

  it.runIf(existsSync('/proc/thread-self'))('runs on a thread of lower priority than the event loop (Linux)', async () => {
    const { cookie } = await registerUser(t.app);
    const niceThreads = () =>
      readdirSync('/proc/self/task').filter((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        // Fields after the command's closing parenthesis start at the 3rd; nice is the 19th.
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) === READER_THREAD_NICE;
      });
    const before = niceThreads();
    const eventLoopPriority = getPriority();
    expect((await t.app.inject({ method: 'GET', url: '/api/links?q=nada', headers: { cookie } })).statusCode).toBe(200);
    expect(niceThreads().filter((tid) => !before.includes(tid))).toHaveLength(1);
    expect(getPriority()).toBe(eventLoopPriority); // the event loop's own is untouched
  });
});

describe('title search on sqlite, through the trigram index or by walking', () => {
  let t: TestApp;
  let cookie: string;
  let userId: number;
  let workspaceId: number;
  let reader: ReturnType<typeof openDatabaseReader>;
  beforeEach(async () => {
    t = await createTestApp('sqlite');
    ({ cookie, user: { id: userId } } = await registerUser(t.app));
    workspaceId = await personalWorkspaceIdOf(t.database.db, userId);
    reader = openDatabaseReader(t.database, t.app.log, 'test');
  });
  afterEach(async () => {
    await reader.close();
    await t.close();
  });

  /** Every page of the query, by its cursor, as ids. */
  const allPages = async (options: Omit<ListOptions, 'limit'>) => {
    const found: number[] = [];
    const column = { created: 'created_at', clicks: 'click_count', title: 'title_search' }[options.sort ?? 'created'] as 'created_at' | 'click_count' | 'title_search';
    for (let after: ListOptions['after']; ; ) {
      const rows = await workspaceLinksPageQuery(t.database.db, workspaceId, { ...options, after, limit: 7 }).execute();
      found.push(...rows.map((row) => row.id));
      if (rows.length < 7) return found;
      const last = rows.at(-1)!;
      after = { value: last[column], id: last.id };
    }
  };

  it('finds the same links either way, in every sort and order, with a state and a tag, page after page', async () => {
    const other = await registerUser(t.app);
    const words = ['Canción', 'cancion', 'CANCIÓN de cuna', 'árbol', 'Arbolado', 'otra cosa', 'canciones', '100% canción'];
    for (let n = 0; n < 60; n++) {
      const tags = n % 3 === 0 ? ['par'] : [];
      await createLinkAs(t.app, cookie, { title: `${words[n % words.length]} ${n}`, tags });
      if (n % 4 === 0) await createLinkAs(t.app, other.cookie, { title: `${words[n % words.length]} ajeno` });
    }
    await t.database.db.updateTable('urls').set({ paused: 1 }).where('user_id', '=', userId).where(sql<boolean>`id % 5 = 0`).execute();
    await t.database.db.updateTable('urls').set({ click_count: sql<number>`id % 4` }).execute();
    const tag = await t.database.db.selectFrom('tags').select('id').where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();

    for (const search of ['cancion', 'ARBOL', '% can', 'ones 6', 'zapato']) {
      const searchIds = await fewTitleMatches(reader, search);
      expect(searchIds, search).toBeDefined();
      for (const sort of ['created', 'clicks', 'title'] as const) {
        for (const order of ['asc', 'desc'] as const) {
          for (const narrowing of [{}, { status: 'active' as const }, { tag: { id: Number(tag.id), walk: true } }, { tag: { id: Number(tag.id), walk: false } }]) {
            const options = { search, sort, order, ...narrowing };
            const walked = await allPages(options);
            const fromIndex = await allPages({ ...options, searchIds });
            expect(fromIndex, JSON.stringify(options)).toEqual(walked);
          }
        }
      }
    }
    // And they are the right ones: what a plain comparison of every title finds.
    const expected = (await t.database.db.selectFrom('urls').select('id').where('user_id', '=', userId).where('title_search', 'like', '%cancion%').orderBy('created_at', 'desc').orderBy('id', 'desc').execute()).map((row) => row.id);
    expect(expected.length).toBeGreaterThan(20);
    expect(await allPages({ search: 'Canción', searchIds: await fewTitleMatches(reader, 'Canción') })).toEqual(expected);
  });

  it('reads a rare term from the index and walks for a common one or a short one, with the right answers', async () => {
    await seedLinks(t, userId, FEW_MATCHES + 1, (n) => `Enlace ${n}`);
    // Every title holds 'enlace': walking the newest meets a page at once.
    expect(await fewTitleMatches(reader, 'enlace')).toBeUndefined();
    expect(await fewTitleMatches(reader, 'en')).toBeUndefined();
    expect(JSON.parse((await fewTitleMatches(reader, 'ENLACE 4321'))!)).toHaveLength(1);
    const get = async (q: string) => (await t.app.inject({ method: 'GET', url: `/api/links?q=${encodeURIComponent(q)}`, headers: { cookie } })).json() as LinkList;
    expect((await get('enlace')).links.map((link) => link.title).slice(0, 2)).toEqual([`Enlace ${FEW_MATCHES}`, `Enlace ${FEW_MATCHES - 1}`]);
    expect((await get('enlace 4321')).links.map((link) => link.title)).toEqual(['Enlace 4321']);
    expect((await get('e 500')).links.map((link) => link.title)).toEqual(['Enlace 5000', 'Enlace 500']);

    // The rare term's few matches are the walk: no sort index of the workspace is read.
    const query = workspaceLinksPageQuery(t.database.db, workspaceId, { search: 'enlace 4321', searchIds: await fewTitleMatches(reader, 'enlace 4321'), limit: 51 }).compile();
    const plan = (await t.database.db.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` })).rows.map((row) => row.detail);
    expect(plan).toContain('SCAN json_each VIRTUAL TABLE INDEX 1:');
    expect(plan.filter((step) => step.includes('urls_workspace_id') || step.includes('urls_user_id'))).toEqual([]);
  });
});
