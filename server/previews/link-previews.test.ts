import { previewMessages as m } from '@common/previews/preview-messages';
import type { Link } from '@common/links/link-schemas';
import { textMessages } from '@common/text';
import { buckets } from '@common/constants';
import sharp from 'sharp';
import { ORPHAN_MIN_AGE_MS, sweepOrphans } from '../storage/orphan-sweep';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { type FilePart, makeImage, multipart, registerUser, sameOrigin } from '../test/test-users';

const BASE = 'https://corto.example';

describe.each(testDialects)('link previews through the API on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await createTestApp(dialect, { PUBLIC_BASE_URL: BASE });
    ({ cookie } = await registerUser(t.app));
  });
  afterEach(async () => t.close());

  const patch = (id: number, payload: object) =>
    t.app.inject({ method: 'PATCH', url: `/api/links/${id}`, headers: { cookie, ...sameOrigin }, payload });
  const upload = async (id: number, image: FilePart | undefined) => {
    const body = await multipart({ image });
    return t.app.inject({ method: 'PUT', url: `/api/links/${id}/preview-image`, headers: { cookie, ...sameOrigin, ...body.headers }, payload: body.payload });
  };
  const removeImage = (id: number) => t.app.inject({ method: 'DELETE', url: `/api/links/${id}/preview-image`, headers: { cookie, ...sameOrigin } });
  const stored = async (image: string) => t.app.inject({ method: 'GET', url: new URL(image).pathname });
  const png = async (width: number, height: number): Promise<FilePart> => ({ bytes: await makeImage('png', width, height), filename: 'tarjeta.png', type: 'image/png' });

  it('creates a link with a preview, trimmed, and answers null for a link without one', async () => {
    const plain = await createLinkAs(t.app, cookie, {});
    expect(plain.preview).toBeNull();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/links',
      headers: { cookie, ...sameOrigin },
      payload: { title: 'Oferta', longUrl: 'https://example.com/oferta', preview: { title: '  Rebajas de verano ', description: ' Todo al 50 % ' } },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().link.preview).toEqual({ title: 'Rebajas de verano', description: 'Todo al 50 %', image: null });
  });

  it('sets, changes and removes a preview with PATCH; a blank description is none', async () => {
    const link = await createLinkAs(t.app, cookie, {});
    const set = await patch(link.id, { preview: { title: 'Título', description: '   ' } });
    expect(set.statusCode).toBe(200);
    expect(set.json().link.preview).toEqual({ title: 'Título', description: null, image: null });
    const got = await t.app.inject({ method: 'GET', url: `/api/links/${link.id}`, headers: { cookie } });
    expect(got.json().link.preview).toEqual({ title: 'Título', description: null, image: null });
    const removed = await patch(link.id, { preview: null });
    expect(removed.json().link.preview).toBeNull();
  });

  it.each([
    ['a title over 120 characters', { title: 'a'.repeat(121) }, 'preview', m.titleTooLong],
    // C0 controls meet the rule every route's text follows first (server/http/control-characters.ts).
    ['a line break in the title', { title: 'uno\ndos' }, 'preview', textMessages.controlCharacters],
    ['a direction mark in the title', { title: 'factura\u202Egnp.exe' }, 'preview', m.titleControl],
    ['a description over 300 characters', { title: 'Bien', description: 'd'.repeat(301) }, 'preview', m.descriptionTooLong],
    ['a NUL in the description', { title: 'Bien', description: 'a\u0000b' }, 'preview', textMessages.controlCharacters],
    ['a direction mark in the description', { title: 'Bien', description: 'a\u202Eb' }, 'preview', m.descriptionControl],
  ])('refuses %s with a Spanish message under its field and keeps the link as it was', async (_case, preview, field, message) => {
    const link = await createLinkAs(t.app, cookie, {});
    const response = await patch(link.id, { preview });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ [field]: [message] });
    expect((await t.app.inject({ method: 'GET', url: `/api/links/${link.id}`, headers: { cookie } })).json().link.preview).toBeNull();
  });

  it('takes blank words as none: a preview of nothing is no preview', async () => {
    const link = await createLinkAs(t.app, cookie, {});
    expect((await patch(link.id, { preview: { title: '  ', description: '' } })).json().link.preview).toBeNull();
    expect((await patch(link.id, { preview: { description: 'Solo texto' } })).json().link.preview).toEqual({ title: null, description: 'Solo texto', image: null });
  });

  it('refuses a preview that is not an object, and one with an image field (the image has its own route)', async () => {
    const link = await createLinkAs(t.app, cookie, {});
    expect((await patch(link.id, { preview: 'hola' })).statusCode).toBe(400);
    expect((await patch(link.id, { preview: { title: 'Bien', image: 'https://evil.example/x.png' } })).statusCode).toBe(400);
  });

  it('stores an uploaded image cropped to 1200×630 under previews/, at an absolute address', async () => {
    const link = await createLinkAs(t.app, cookie, {});
    const response = await upload(link.id, await png(800, 800));
    expect(response.statusCode).toBe(200);
    const preview: NonNullable<Link['preview']> = response.json().link.preview;
    // Only an image: a preview all the same, its title the link's own on the card.
    expect(preview).toMatchObject({ title: null, description: null });
    expect(preview.image).toMatch(/^https:\/\/corto\.example\/storage\/previews\/pv-\d+-\d{13}-[A-Za-z0-9_-]{22}\.png$/);
    const file = await stored(preview.image!);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    const { width, height, format } = await sharp(file.rawPayload).metadata();
    expect({ width, height, format }).toEqual({ width: 1200, height: 630, format: 'png' });
  });

  it('takes JPEG and WebP too; a new image replaces the old file', async () => {
    const link = await createLinkAs(t.app, cookie, {});
    const first = (await upload(link.id, { bytes: await makeImage('jpeg', 1600, 900), filename: 'a.jpg', type: 'image/jpeg' })).json().link.preview.image as string;
    expect(first).toMatch(/\.jpg$/);
    const second = await upload(link.id, { bytes: await makeImage('webp', 300, 200), filename: 'b.webp', type: 'image/webp' });
    expect(second.statusCode).toBe(200);
    expect(second.json().link.preview.image).toMatch(/\.webp$/);
    expect((await stored(first)).statusCode).toBe(404);
  });

  it('refuses a file that is not an image whatever its name and type, a GIF, and a missing file, in Spanish', async () => {
    const link = await createLinkAs(t.app, cookie, {});
    const text = await upload(link.id, { bytes: Buffer.from('no soy una imagen\n'.repeat(20)), filename: 'foto.png', type: 'image/png' });
    expect(text.statusCode).toBe(400);
    expect(text.json().error.fields).toEqual({ image: [m.imageType] });
    const gif = await upload(link.id, { bytes: await makeImage('gif'), filename: 'a.gif', type: 'image/gif' });
    expect(gif.json().error.fields).toEqual({ image: [m.imageType] });
    const none = await upload(link.id, undefined);
    expect(none.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/links/${link.id}`, headers: { cookie } })).json().link.preview).toBeNull();
  });

  it('refuses a file over 5 MB with a Spanish 413', async () => {
    const link = await createLinkAs(t.app, cookie, {});
    const response = await upload(link.id, { bytes: Buffer.alloc(5 * 1024 * 1024 + 1, 7), filename: 'enorme.png', type: 'image/png' });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.fields).toEqual({ image: [m.imageTooLarge] });
  });

  it('refuses an image whose canvas is larger than 8000 pixels a side before decoding it', async () => {
    const link = await createLinkAs(t.app, cookie, {});
    const huge = await sharp({ create: { width: 8001, height: 10, channels: 3, background: '#000' } }).png().toBuffer();
    const response = await upload(link.id, { bytes: huge, filename: 'ancha.png', type: 'image/png' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ image: [m.imageDimensions] });
  });

  it('DELETE takes the image away (the file too) and keeps the words; preview null takes everything', async () => {
    const link = await createLinkAs(t.app, cookie, {});
    await patch(link.id, { preview: { title: 'Con foto', description: 'Y texto' } });
    const image = (await upload(link.id, await png(1200, 630))).json().link.preview.image as string;
    const removed = await removeImage(link.id);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().link.preview).toEqual({ title: 'Con foto', description: 'Y texto', image: null });
    expect((await stored(image)).statusCode).toBe(404);

    const again = (await upload(link.id, await png(1200, 630))).json().link.preview.image as string;
    expect((await patch(link.id, { preview: null })).json().link.preview).toBeNull();
    expect((await stored(again)).statusCode).toBe(404);
  });

  it('leaves the picture a row names to the orphan sweep and takes one no row names', async () => {
    const link = await createLinkAs(t.app, cookie, {});
    const named = (await upload(link.id, await png(100, 100))).json().link.preview.image as string;
    await t.app.appContext.storage.put(buckets.previews, 'pv-999-1-huerfana.png', await makeImage(), 'image/png');
    const swept = await sweepOrphans({ db: t.database.db, storage: t.app.appContext.storage, now: Date.now() + 2 * ORPHAN_MIN_AGE_MS });
    expect(swept.orphans).toBe(1);
    expect((await stored(named)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/storage/previews/pv-999-1-huerfana.png' })).statusCode).toBe(404);
  });

  it('answers 404 for a link of another account and for an id that names nothing', async () => {
    const other = await registerUser(t.app, { email: 'otra@corto.test' });
    const link = await createLinkAs(t.app, other.cookie, {});
    expect((await upload(link.id, await png(100, 100))).statusCode).toBe(404);
    expect((await removeImage(link.id)).statusCode).toBe(404);
    expect((await removeImage(999999)).statusCode).toBe(404);
  });
});
