import { linkMessages as m } from '@common/links/link-messages';
import type { Link } from '@common/links/link-schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';
import { agents } from '../redirect/redirect.test-support';
import { createLinkAs, decodeQr } from './links.test-support';

const BASE = 'https://corto.example';

describe.each(testDialects)('PATCH /api/links/:id on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await createTestApp(dialect, { PUBLIC_BASE_URL: BASE });
    ({ cookie } = await registerUser(t.app));
  });
  afterEach(async () => t.close());

  const patch = (id: number | string, payload: unknown, who: string = cookie) =>
    t.app.inject({ method: 'PATCH', url: `/api/links/${id}`, headers: { cookie: who, ...sameOrigin }, payload: payload as object });
  const getLink = async (id: number): Promise<Link> =>
    (await t.app.inject({ method: 'GET', url: `/api/links/${id}`, headers: { cookie } })).json().link;
  const visit = (address: string) =>
    t.app.inject({ method: 'GET', url: `/${encodeURIComponent(address)}`, headers: { 'user-agent': agents.desktop } });

  it('edits title and destination; the code, QR file and clicks stay, and the next visit goes to the new place', async () => {
    const link = await createLinkAs(t.app, cookie, { longUrl: 'https://example.com/typo' });
    expect((await visit(link.shortCode)).headers.location).toBe('https://example.com/typo'); // now cached
    await t.app.appContext.clickWriter.flush();

    const response = await patch(link.id, { title: ' Nuevo título ', longUrl: 'https://example.com/bien' });
    expect(response.statusCode).toBe(200);
    const edited: Link = response.json().link;
    expect(edited).toMatchObject({ title: 'Nuevo título', originalUrl: 'https://example.com/bien', shortCode: link.shortCode, clicks: 1 });
    expect(edited).toMatchObject({ status: 'active', paused: false, expiresAt: null, maxClicks: null, hasPassword: false, previousAddresses: [] });
    expect(Date.parse(edited.updatedAt)).toBeGreaterThanOrEqual(Date.parse(link.createdAt));
    expect((await visit(link.shortCode)).headers.location).toBe('https://example.com/bien');
  });

  it('keeps the title search in step with an edited title, accents and case ignored', async () => {
    const link = await createLinkAs(t.app, cookie, { title: 'Borrador' });
    expect((await patch(link.id, { title: 'Canción de cuna' })).statusCode).toBe(200);
    const titlesFound = async (q: string) =>
      ((await t.app.inject({ method: 'GET', url: `/api/links?q=${encodeURIComponent(q)}`, headers: { cookie } })).json().links as Link[]).map((l) => l.title);
    expect(await titlesFound('cancion')).toEqual(['Canción de cuna']);
    expect(await titlesFound('borrador')).toEqual([]);
  });

  it('validates the destination exactly as creation does', async () => {
    const link = await createLinkAs(t.app, cookie);
    for (const [longUrl, message] of [
      ['', m.longUrlRequired],
      ['ftp://example.com', m.longUrlProtocol],
      ['http://127.0.0.1/admin', m.longUrlPrivate],
      [`${BASE}/otro`, m.longUrlThisInstance],
    ] as const) {
      const response = await patch(link.id, { longUrl });
      expect(response.statusCode, longUrl).toBe(400);
      expect(response.json().error.fields.longUrl).toContain(message);
    }
    expect((await getLink(link.id)).originalUrl).toBe(link.originalUrl);
  });

  it('changes nothing at all when one field is refused, and keeps the cached destination', async () => {
    const link = await createLinkAs(t.app, cookie, { customUrl: 'intacto' });
    await visit(link.shortCode);
    const response = await patch(link.id, { title: 'Otro', longUrl: 'https://example.com/otro', customUrl: 'x', maxClicks: 0 });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().error.fields).sort()).toEqual(['customUrl', 'maxClicks']);
    const after = await getLink(link.id);
    expect(after).toEqual({ ...link, previousAddresses: [], updatedAt: after.updatedAt });
    expect(after.updatedAt).toBe(link.updatedAt);
    expect((await visit(link.shortCode)).headers.location).toBe(link.originalUrl);
  });

  it('refuses an unknown field with 400', async () => {
    const link = await createLinkAs(t.app, cookie);
    for (const payload of [{ shortCode: 'abcdef' }, { clicks: 5 }, { title: 'x', etiquetas: ['a'] }]) {
      const response = await patch(link.id, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('validation');
    }
    expect((await getLink(link.id)).title).toBe(link.title);
  });

  it("answers 404 for another user's link and leaves it alone", async () => {
    const other = await registerUser(t.app);
    const theirs = await createLinkAs(t.app, other.cookie, { title: 'Suyo' });
    for (const payload of [{ title: 'Mío' }, { password: 'mi-clave' }]) {
      const response = await patch(theirs.id, payload);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
    const free = await t.app.inject({ method: 'DELETE', url: `/api/links/${theirs.id}/addresses/algo`, headers: { cookie, ...sameOrigin } });
    expect(free.statusCode).toBe(404);
    expect((await patch(theirs.id, { title: 'Suyo 2' }, other.cookie)).statusCode).toBe(200);
  });

  it('moves the alias: the old one keeps redirecting here, the QR shows the new address', async () => {
    const link = await createLinkAs(t.app, cookie, { customUrl: 'Folleto', longUrl: 'https://example.com/campana' });
    const response = await patch(link.id, { customUrl: 'Campaña-2027' });
    expect(response.statusCode).toBe(200);
    const moved: Link = response.json().link;
    expect(moved.customUrl).toBe('Campaña-2027');
    expect(moved.shortLink).toBe(`${BASE}/Campaña-2027`);
    expect(moved.previousAddresses).toEqual(['Folleto']);
    expect(moved.qr).toMatch(new RegExp(`^/storage/qrs/qr-${link.shortCode}\\.png\\?v=\\d+$`));
    const png = await t.app.inject({ method: 'GET', url: moved.qr });
    expect(await decodeQr(png.rawPayload)).toBe(`${BASE}/Campa%C3%B1a-2027?qr=1`);

    for (const address of ['Folleto', 'folleto', 'Campaña-2027', link.shortCode]) {
      const visited = await visit(address);
      expect(visited.statusCode, address).toBe(302);
      expect(visited.headers.location).toBe('https://example.com/campana');
    }
    // Counted as this link's clicks.
    await t.app.appContext.clickWriter.flush();
    expect((await getLink(link.id)).clicks).toBe(4);
  });

  it('refuses with 409 an alias in use by anyone, as a current or a former alias', async () => {
    const other = await registerUser(t.app);
    await createLinkAs(t.app, other.cookie, { customUrl: 'Ocupado' });
    const theirs = await createLinkAs(t.app, other.cookie, { customUrl: 'Antiguo' });
    expect((await patch(theirs.id, { customUrl: 'Nuevo-suyo' }, other.cookie)).statusCode).toBe(200);
    const mine = await createLinkAs(t.app, cookie);
    for (const customUrl of ['ocupado', 'ANTIGUO', 'nuevo-suyo', theirs.shortCode]) {
      const response = await patch(mine.id, { customUrl });
      expect(response.statusCode, customUrl).toBe(409);
      expect(response.json().error.fields.customUrl).toEqual([m.aliasTaken]);
    }
    // Creation refuses a former alias too.
    const create = await t.app.inject({ method: 'POST', url: '/api/links', headers: { cookie, ...sameOrigin }, payload: { title: 't', longUrl: 'https://example.com', customUrl: 'antiguo' } });
    expect(create.statusCode).toBe(409);
  });

  it('removes the alias with null (it keeps redirecting as a former one) and can move back to a former alias', async () => {
    const link = await createLinkAs(t.app, cookie, { customUrl: 'uno-1' });
    let edited: Link = (await patch(link.id, { customUrl: 'dos-2' })).json().link;
    edited = (await patch(link.id, { customUrl: null })).json().link;
    expect(edited.customUrl).toBeNull();
    expect(edited.shortLink).toBe(`${BASE}/${link.shortCode}`);
    expect(edited.previousAddresses).toEqual(['uno-1', 'dos-2']);
    edited = (await patch(link.id, { customUrl: 'UNO-1' })).json().link;
    expect(edited.customUrl).toBe('UNO-1');
    expect(edited.previousAddresses).toEqual(['dos-2']);
    // A change of case only is the same address: nothing becomes former.
    edited = (await patch(link.id, { customUrl: 'uno-1' })).json().link;
    expect(edited.previousAddresses).toEqual(['dos-2']);
  });

  it('frees a former alias: it stops redirecting at once and anyone may take it', async () => {
    const link = await createLinkAs(t.app, cookie, { customUrl: 'viejo-1' });
    await patch(link.id, { customUrl: 'nuevo-1' });
    expect((await visit('viejo-1')).statusCode).toBe(302); // cached now
    const free = (address: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/links/${link.id}/addresses/${encodeURIComponent(address)}`, headers: { cookie, ...sameOrigin } });
    expect((await free('Viejo-1')).statusCode).toBe(204);
    expect((await visit('viejo-1')).statusCode).toBe(404);
    expect((await getLink(link.id)).previousAddresses).toEqual([]);
    const again = await free('viejo-1');
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe(m.addressNotFound);
    const other = await registerUser(t.app);
    expect((await createLinkAs(t.app, other.cookie, { customUrl: 'viejo-1' })).customUrl).toBe('viejo-1');
  });

  it('sets and clears pause, expiry, click limit and password; the password is never returned', async () => {
    const link = await createLinkAs(t.app, cookie, { customUrl: 'se-queda' });
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const set = await patch(link.id, { paused: true, expiresAt, maxClicks: 10, password: 'secreto-1' });
    expect(set.statusCode).toBe(200);
    expect(set.json().link).toMatchObject({ status: 'paused', paused: true, expiresAt, maxClicks: 10, hasPassword: true });
    expect(set.body).not.toContain('secreto-1');
    expect(set.body).not.toContain('argon2');
    const cleared = (await patch(link.id, { paused: false, expiresAt: null, maxClicks: null, password: null })).json().link;
    expect(cleared).toMatchObject({ status: 'active', paused: false, expiresAt: null, maxClicks: null, hasPassword: false });
    // Fields left out of a PATCH stay as they were.
    expect(cleared).toMatchObject({ customUrl: 'se-queda', title: link.title, originalUrl: link.originalUrl, previousAddresses: [] });
  });

  it('keeps the places a limit has used when an edit raises it, clicks still queued included', async () => {
    const link = await createLinkAs(t.app, cookie);
    expect((await patch(link.id, { maxClicks: 2 })).statusCode).toBe(200);
    expect([(await visit(link.shortCode)).statusCode, (await visit(link.shortCode)).statusCode, (await visit(link.shortCode)).statusCode]).toEqual([302, 302, 410]);
    // No flush: on SQLite the two places are still only in memory and in the click queue.
    expect((await patch(link.id, { maxClicks: 3 })).statusCode).toBe(200);
    expect([(await visit(link.shortCode)).statusCode, (await visit(link.shortCode)).statusCode]).toEqual([302, 410]);
    await t.app.appContext.clickWriter.flush();
    expect(await getLink(link.id)).toMatchObject({ status: 'expired', limitClicks: 3, maxClicks: 3, clicks: 3 });
  });

  it('refuses a past expiry date, a bad click limit and a short password with their messages', async () => {
    const link = await createLinkAs(t.app, cookie);
    const response = await patch(link.id, { expiresAt: '2020-01-01T00:00:00Z', maxClicks: 1.5, password: 'abc' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ expiresAt: [m.expiresAtPast], maxClicks: [m.maxClicksInvalid], password: [m.passwordLength] });
    expect((await patch(link.id, { expiresAt: 'mañana' })).json().error.fields.expiresAt).toEqual([m.expiresAtInvalid]);
  });

  it('filters the list by status', async () => {
    const active = await createLinkAs(t.app, cookie, { title: 'activo' });
    const paused = await createLinkAs(t.app, cookie, { title: 'pausado' });
    const spent = await createLinkAs(t.app, cookie, { title: 'agotado' });
    await patch(paused.id, { paused: true });
    // A limit set on a link counts the clicks it already has.
    expect((await visit(spent.shortCode)).statusCode).toBe(302);
    await t.app.appContext.clickWriter.flush();
    expect((await patch(spent.id, { maxClicks: 1 })).json().link).toMatchObject({ status: 'expired', limitClicks: 1 });
    const titles = async (status: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/links?status=${status}`, headers: { cookie } })).json().links.map((l: Link) => l.title);
    expect(await titles('active')).toEqual([active.title]);
    expect(await titles('paused')).toEqual(['pausado']);
    expect(await titles('expired')).toEqual(['agotado']);
    expect(await titles('disabled')).toEqual([]);
    const bad = await t.app.inject({ method: 'GET', url: '/api/links?status=raro', headers: { cookie } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.status).toEqual([m.statusInvalid]);
  });
});
