import { linkMessages as m } from '@common/links/link-messages';
import type { Link, LinkList, TagList } from '@common/links/link-schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';
import { createLinkAs, postLink } from './links.test-support';

describe.each(testDialects)('link tags on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    ({ cookie } = await registerUser(t.app));
  });
  afterEach(async () => t.close());

  const patch = (id: number, payload: object) =>
    t.app.inject({ method: 'PATCH', url: `/api/links/${id}`, headers: { cookie, ...sameOrigin }, payload });
  const tagsOfUser = async (who = cookie) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/tags', headers: { cookie: who } });
    expect(response.statusCode).toBe(200);
    return (response.json() as TagList).tags;
  };
  const titlesWithTag = async (tag: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/links?tag=${encodeURIComponent(tag)}`, headers: { cookie } });
    expect(response.statusCode).toBe(200);
    return (response.json() as LinkList).links.map((link) => link.title);
  };

  it('sets tags at creation: trimmed, one per case-insensitive name, the first spelling kept, alphabetical', async () => {
    const link = await createLinkAs(t.app, cookie, { tags: ['  Verano ', 'campaña', 'VERANO', 'Álbum'] });
    // Alphabetical the Spanish way, whatever the case or accent.
    expect(link.tags).toEqual(['Álbum', 'campaña', 'Verano']);
    // The same tag on another link, in another case, keeps the user's first spelling.
    const second = await createLinkAs(t.app, cookie, { tags: ['verano'] });
    expect(second.tags).toEqual(['Verano']);
    const fetched = await t.app.inject({ method: 'GET', url: `/api/links/${link.id}`, headers: { cookie } });
    expect((fetched.json().link as Link).tags).toEqual(link.tags);
    expect((await createLinkAs(t.app, cookie)).tags).toEqual([]);
  });

  it('refuses bad tags with every message under tags, and creates nothing', async () => {
    const response = await postLink(t.app, cookie, {
      title: 'x',
      longUrl: 'https://example.com',
      tags: ['', 'a|b', 't'.repeat(41), ...Array.from({ length: 20 }, (_, i) => `t${i}`)],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.tags.sort()).toEqual([m.tagEmpty, m.tagCharacters, m.tagTooLong, m.tagsTooMany].sort());
    // Exactly 20, each of 40 characters, is fine; duplicates in another case count once.
    const fine = Array.from({ length: 20 }, (_, i) => `${String(i).padStart(2, '0')}${'ñ'.repeat(38)}`);
    expect((await createLinkAs(t.app, cookie, { tags: [...fine, fine[0]!.toUpperCase()] })).tags).toHaveLength(20);
    expect((await tagsOfUser()).length).toBe(20);
  });

  it('replaces the whole set on PATCH, and an empty list takes them all off', async () => {
    const link = await createLinkAs(t.app, cookie, { tags: ['uno', 'dos'] });
    const edited = await patch(link.id, { tags: ['dos', 'Tres'] });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().link.tags).toEqual(['dos', 'Tres']);
    expect((await patch(link.id, { title: 'Otro' })).json().link.tags).toEqual(['dos', 'Tres']);
    const bad = await patch(link.id, { tags: ['x'.repeat(41)] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.tags).toEqual([m.tagTooLong]);
    expect((await patch(link.id, { tags: [] })).json().link.tags).toEqual([]);
    expect(await tagsOfUser()).toEqual([]);
  });

  it("counts the caller's tags in GET /api/tags, never another user's, and forgets deleted links", async () => {
    const a = await createLinkAs(t.app, cookie, { tags: ['Verano', 'blog'] });
    await createLinkAs(t.app, cookie, { tags: ['verano'] });
    const other = await registerUser(t.app);
    await createLinkAs(t.app, other.cookie, { tags: ['verano', 'ajena'] });
    expect(await tagsOfUser()).toEqual([
      { name: 'blog', links: 1 },
      { name: 'Verano', links: 2 },
    ]);
    expect(await tagsOfUser(other.cookie)).toEqual([
      { name: 'ajena', links: 1 },
      { name: 'verano', links: 1 },
    ]);
    await t.app.inject({ method: 'DELETE', url: `/api/links/${a.id}`, headers: { cookie, ...sameOrigin } });
    expect(await tagsOfUser()).toEqual([{ name: 'Verano', links: 1 }]);
  });

  it('filters the list by a tag in any case, over every link, keeping the totals', async () => {
    await createLinkAs(t.app, cookie, { title: 'Uno', tags: ['Verano'] });
    await createLinkAs(t.app, cookie, { title: 'Dos', tags: ['otoño'] });
    await createLinkAs(t.app, cookie, { title: 'Tres', tags: ['verano', 'otoño'] });
    const other = await registerUser(t.app);
    await createLinkAs(t.app, other.cookie, { title: 'Ajeno', tags: ['verano'] });
    expect(await titlesWithTag('VERANO')).toEqual(['Tres', 'Uno']);
    expect(await titlesWithTag(' Otoño ')).toEqual(['Tres', 'Dos']);
    expect(await titlesWithTag('invierno')).toEqual([]);
    const response = await t.app.inject({ method: 'GET', url: '/api/links?tag=verano&q=uno', headers: { cookie } });
    const body = response.json() as LinkList;
    expect(body.links.map((link) => link.title)).toEqual(['Uno']);
    expect(body.links[0]!.tags).toEqual(['Verano']);
    expect(body.totals.links).toBe(3);
  });
});
