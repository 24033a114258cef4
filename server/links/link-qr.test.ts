import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { createLinkAs, decodeQr } from './links.test-support';

describe.each(testDialects)('GET /api/links/:id/qr on %s', (dialect) => {
  let t: TestApp;
  let owner: { cookie: string };
  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await registerUser(t.app);
  });
  afterAll(() => t.close());

  const qr = (id: number | string, query = '', cookie: string | null = owner.cookie) =>
    t.app.inject({ method: 'GET', url: `/api/links/${id}/qr${query}`, headers: cookie ? { cookie } : {} });

  it('makes a PNG of the asked size and colours that a decoder reads as the short address with ?qr=1, named after the title', async () => {
    const link = await createLinkAs(t.app, owner.cookie, { title: 'Cartel de verano', customUrl: 'Ñoquis-qr' });
    const response = await qr(link.id, '?size=1000&margin=2&color=%231e3a8a&background=fef3c7&ecc=H');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="Cartel de verano.png"; filename*=UTF-8''Cartel%20de%20verano.png`);
    const png = response.rawPayload;
    const { width, height } = await sharp(png).metadata();
    expect([width, height]).toEqual([1000, 1000]);
    expect(await decodeQr(png)).toBe(`${t.config.publicBaseUrl}/%C3%91oquis-qr?qr=1`);
    // The corner pixel is the background, the finder pattern's corner the code's colour.
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    expect(pixel(0, 0)).toEqual([0xfe, 0xf3, 0xc7]);
    const firstDark = [...Array(info.width).keys()].find((i) => data[(i * info.width + i) * info.channels]! < 128)!;
    expect(pixel(firstDark, firstDark)).toEqual([0x1e, 0x3a, 0x8a]);
  });

  it('makes an SVG at the asked size that reads back as the same address', async () => {
    const link = await createLinkAs(t.app, owner.cookie, { title: 'Menú del día' });
    const response = await qr(link.id, '?format=svg&size=300&ecc=L');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers['content-disposition']).toContain(`filename*=UTF-8''Men%C3%BA%20del%20d%C3%ADa.svg`);
    expect(response.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="300" height="300"/);
    const png = await sharp(Buffer.from(response.body)).png().toBuffer();
    expect(await decodeQr(png)).toBe(`${link.shortLink}?qr=1`);
  });

  it('gives every module the same whole number of pixels, the rest going to the quiet zone', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    const png = (await qr(link.id, '?size=128&margin=0&ecc=L')).rawPayload;
    const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([128, 128]);
    // Along the top edge of the finder pattern (7 modules wide), dark runs a whole number of modules.
    const firstDark = [...Array(128).keys()].find((i) => data[i * 128 + i]! < 128)!;
    let run = 0;
    while (data[firstDark * 128 + firstDark + run]! < 128) run += 1;
    expect(run % 7).toBe(0);
    expect(await decodeQr(png)).toBe(`${link.shortLink}?qr=1`);
  });

  it('refuses bad parameters with a 400 in Spanish, each under its own name', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    const response = await qr(link.id, '?format=gif&size=4096&margin=x&color=red&background=%23ggg&ecc=Z');
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'validation',
      fields: {
        format: ['El formato debe ser png o svg'],
        size: ['El tamaño debe ser un número entero entre 128 y 2048 píxeles'],
        margin: ['El margen debe ser un número entero entre 0 y 16 módulos'],
        color: ['El color debe ser un color hexadecimal, como #000000'],
        background: ['El fondo debe ser un color hexadecimal, como #ffffff'],
        ecc: ['La corrección de errores debe ser L, M, Q o H'],
      },
    });
    const faint = await qr(link.id, '?color=eeeeee');
    expect(faint.statusCode).toBe(400);
    expect(faint.json().error.fields.background).toEqual(['El color y el fondo se parecen demasiado: el código no se podría leer']);
    for (const size of ['127', '2049', '512.5', '']) expect((await qr(link.id, `?size=${size}`)).statusCode).toBe(400);
  });

  it('answers 401 without a session and 404 for another user\'s link or a malformed id', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    expect((await qr(link.id, '', null)).statusCode).toBe(401);
    const other = await registerUser(t.app);
    expect((await qr(link.id, '', other.cookie)).statusCode).toBe(404);
    expect((await qr('abc')).statusCode).toBe(404);
  });
});
