import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { linkMessages as m } from '@common/links/link-messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { createLinkAs, decodeQr, postLink } from './links.test-support';

const BASE = 'https://corto.example';

describe.each(testDialects)('POST /api/links on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await createTestApp(dialect, { PUBLIC_BASE_URL: BASE });
    ({ cookie } = await registerUser(t.app));
  });
  afterEach(async () => t.close());

  const storedQrs = async () => readdir(path.join(t.config.dataDir, 'storage', 'qrs')).catch(() => [] as string[]);

  it('creates a link with a random short code and a QR of the short address, served from bucket qrs', async () => {
    const response = await postLink(t.app, cookie, { title: ' Mi blog ', longUrl: 'https://example.com/post?id=1' });
    expect(response.statusCode).toBe(201);
    const { link } = response.json();
    expect(link).toMatchObject({ title: 'Mi blog', originalUrl: 'https://example.com/post?id=1', customUrl: null, clicks: 0 });
    expect(link.shortCode).toMatch(/^[0-9a-z]{6}$/);
    expect(link.shortLink).toBe(`${BASE}/${link.shortCode}`);
    expect(link.qr).toBe(`/storage/qrs/qr-${link.shortCode}.png`);
    expect(Math.abs(Date.parse(link.createdAt) - Date.now())).toBeLessThan(60_000);

    const png = await t.app.inject({ method: 'GET', url: link.qr });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(await decodeQr(png.rawPayload)).toBe(`${link.shortLink}?qr=1`);
  });

  it('builds the short address and its QR on the custom alias when there is one', async () => {
    const link = await createLinkAs(t.app, cookie, { customUrl: 'Mi-Alias_1' });
    expect(link.customUrl).toBe('Mi-Alias_1');
    expect(link.shortLink).toBe(`${BASE}/Mi-Alias_1`);
    expect(link.qr).toBe(`/storage/qrs/qr-${link.shortCode}.png`);
    const png = await t.app.inject({ method: 'GET', url: link.qr });
    expect(await decodeQr(png.rawPayload)).toBe(`${BASE}/Mi-Alias_1?qr=1`);
  });

  it('reads an empty or blank alias as none', async () => {
    expect((await createLinkAs(t.app, cookie, { customUrl: '' })).customUrl).toBeNull();
    expect((await createLinkAs(t.app, cookie, { customUrl: '   ' })).customUrl).toBeNull();
    expect((await createLinkAs(t.app, cookie, { customUrl: null })).customUrl).toBeNull();
  });

  it("answers 400 with every field's messages at once, in the spec's wording", async () => {
    const response = await postLink(t.app, cookie, { title: '', longUrl: '', customUrl: 'a!' });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('validation');
    expect(error.fields).toEqual({
      title: ['El título es obligatorio'],
      longUrl: ['La URL es obligatoria'],
      customUrl: [m.aliasLength, m.aliasCharacters],
    });
    const invalid = await postLink(t.app, cookie, { title: 't', longUrl: 'esto no es una url' });
    expect(invalid.json().error.fields).toEqual({ longUrl: ['La URL debe ser válida'] });
    expect(await storedQrs()).toEqual([]);
  });

  it('accepts only http and https long URLs of at most 2,048 characters', async () => {
    for (const longUrl of ['ftp://example.com/file', 'javascript:alert(1)', 'file:///etc/passwd']) {
      const response = await postLink(t.app, cookie, { title: 't', longUrl });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toEqual({ longUrl: [m.longUrlProtocol] });
    }
    const base = 'http://example.com/';
    const tooLong = await postLink(t.app, cookie, { title: 't', longUrl: base + 'a'.repeat(2049 - base.length) });
    expect(tooLong.json().error.fields).toEqual({ longUrl: [m.longUrlTooLong] });
    const longest = await createLinkAs(t.app, cookie, { longUrl: base + 'a'.repeat(2048 - base.length) });
    expect(longest.originalUrl).toHaveLength(2048);
  });

  it('refuses reserved paths as aliases, in any case', async () => {
    for (const customUrl of ['dashboard', 'API', 'Auth', 'storage', 'link']) {
      const response = await postLink(t.app, cookie, { title: 't', longUrl: 'https://example.com', customUrl });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toEqual({ customUrl: [m.aliasReserved] });
    }
  });

  it('refuses an alias already in use regardless of case, by anyone, with 409', async () => {
    await createLinkAs(t.app, cookie, { customUrl: 'promo' });
    const other = await registerUser(t.app);
    for (const [who, customUrl] of [[cookie, 'PROMO'], [other.cookie, 'Promo']] as const) {
      const response = await postLink(t.app, who, { title: 't', longUrl: 'https://example.com', customUrl });
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toMatchObject({ code: 'conflict', fields: { customUrl: [m.aliasTaken] } });
    }
    expect(await storedQrs()).toHaveLength(1);
  });

  it("refuses an alias equal to another link's short code", async () => {
    const existing = await createLinkAs(t.app, cookie);
    const response = await postLink(t.app, cookie, {
      title: 't',
      longUrl: 'https://example.com',
      customUrl: existing.shortCode.toUpperCase(),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.fields).toEqual({ customUrl: [m.aliasTaken] });
  });

  it('removes the stored QR when the row cannot be written', async () => {
    // A real failure of the database: a trigger refusing every insert into urls.
    if (dialect === 'sqlite') {
      await sql`create trigger refuse_urls before insert on urls begin select raise(abort, 'refused'); end`.execute(t.database.db);
    } else {
      await sql`create function refuse_urls() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`.execute(t.database.db);
      await sql`create trigger refuse_urls before insert on urls for each row execute function refuse_urls()`.execute(t.database.db);
    }
    const response = await postLink(t.app, cookie, { title: 't', longUrl: 'https://example.com' });
    expect(response.statusCode).toBe(500);
    expect(response.json().error.code).toBe('internal');
    expect(await storedQrs()).toEqual([]);
  });

  it('answers 401 to an anonymous caller and stores nothing', async () => {
    const response = await postLink(t.app, undefined, { title: 't', longUrl: 'https://example.com' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('unauthorized');
    expect(await storedQrs()).toEqual([]);
  });
});
