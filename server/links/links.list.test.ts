import { linkMessages as m } from '@common/links/link-messages';
import type { LinkList } from '@common/links/link-schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { createLinkAs } from './links.test-support';

describe.each(testDialects)('GET /api/links on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    ({ cookie } = await registerUser(t.app));
  });
  afterEach(async () => t.close());

  const list = async (query = '', who = cookie) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/links${query}`, headers: { cookie: who } });
    expect(response.statusCode).toBe(200);
    return response.json() as LinkList;
  };

  it("lists only the caller's links, newest first, with totals of links and clicks", async () => {
    const first = await createLinkAs(t.app, cookie, { title: 'Primero' });
    const second = await createLinkAs(t.app, cookie, { title: 'Segundo' });
    const other = await registerUser(t.app);
    await createLinkAs(t.app, other.cookie, { title: 'Ajeno' });
    // What the click writer keeps: each link's count of human clicks.
    await t.database.db.updateTable('urls').set({ click_count: 7 }).where('id', '=', first.id).execute();
    await t.database.db.updateTable('urls').set({ click_count: 5 }).where('id', '=', second.id).execute();

    const body = await list();
    expect(body.links.map((link) => link.title)).toEqual(['Segundo', 'Primero']);
    expect(body.links.map((link) => link.clicks)).toEqual([5, 7]);
    expect(body.links[0]).toEqual({ ...second, clicks: 5 });
    expect(body.totals).toEqual({ links: 2, clicks: 12 });
    expect(body.nextCursor).toBeNull();

    expect((await list('', other.cookie)).totals).toEqual({ links: 1, clicks: 0 });
  });

  it('shows each link\'s former addresses, read with the page', async () => {
    const moved = await createLinkAs(t.app, cookie, { customUrl: 'antes-1' });
    const still = await createLinkAs(t.app, cookie, { customUrl: 'quieto-1' });
    await t.database.db.insertInto('former_aliases').values({ alias_key: 'antes-0', alias: 'Antes-0', url_id: moved.id, created_at: 1 }).execute();
    await t.database.db.insertInto('former_aliases').values({ alias_key: 'antes-00', alias: 'antes-00', url_id: moved.id, created_at: 2 }).execute();
    const { links } = await list();
    expect(links.map((link) => [link.id, link.previousAddresses])).toEqual([
      [still.id, []],
      [moved.id, ['Antes-0', 'antes-00']],
    ]);
  });

  it('answers an empty list and zero totals to a user without links', async () => {
    expect(await list()).toEqual({
      links: [],
      totals: { links: 0, clicks: 0 },
      nextCursor: null,
      publicBaseUrl: t.config.publicBaseUrl,
    });
  });

  it('filters by a case-insensitive substring of the title, accents included, keeping the totals of all links', async () => {
    for (const title of ['Árbol de Navidad', 'mi ÁRBOL', 'Casa', '100% real', 'guion_bajo']) {
      await createLinkAs(t.app, cookie, { title });
    }
    const titles = async (q: string) => (await list(`?q=${encodeURIComponent(q)}`)).links.map((link) => link.title);
    expect(await titles('árbol')).toEqual(['mi ÁRBOL', 'Árbol de Navidad']);
    expect(await titles('ÁRBOL')).toEqual(['mi ÁRBOL', 'Árbol de Navidad']);
    expect(await titles('CASA')).toEqual(['Casa']);
    // LIKE's wildcards are matched literally.
    expect(await titles('%')).toEqual(['100% real']);
    expect(await titles('_')).toEqual(['guion_bajo']);
    expect(await titles('nada')).toEqual([]);
    expect((await list('?q=casa')).totals).toEqual({ links: 5, clicks: 0 });
  });

  it('pages with limit and nextCursor through every link exactly once, also when filtered', async () => {
    const made = [];
    for (let i = 0; i < 7; i += 1) made.push(await createLinkAs(t.app, cookie, { title: `Link ${i}` }));
    // Same creation time for several links: the cursor must still split them by id.
    await t.database.db.updateTable('urls').set({ created_at: 1_700_000_000_000 }).execute();

    const seen: number[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const body = await list(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(body.links.length).toBeLessThanOrEqual(3);
      expect(body.totals.links).toBe(7);
      seen.push(...body.links.map((link) => link.id));
      cursor = body.nextCursor;
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(made.map((link) => link.id).reverse());

    const filtered = await list('?q=link%201&limit=1');
    expect(filtered.links.map((link) => link.title)).toEqual(['Link 1']);
    expect(filtered.nextCursor).toBeNull();
  });

  it('refuses a bad limit or cursor with 400 and Spanish messages', async () => {
    for (const query of ['?limit=0', '?limit=500', '?limit=abc']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/links${query}`, headers: { cookie } });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toEqual({ limit: [m.limitInvalid] });
    }
    const response = await t.app.inject({ method: 'GET', url: '/api/links?cursor=nope', headers: { cookie } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ cursor: [m.cursorInvalid] });
  });

  it('answers 401 to an anonymous caller', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/links' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('unauthorized');
  });
});
