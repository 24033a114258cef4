import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { type FilePart, makeImage, multipart } from '../test/test-users';
import { nameSlug, storeProfilePicture } from './profile-picture';

describe('nameSlug', () => {
  it('turns spaces into hyphens and drops accents and anything a storage key cannot hold', () => {
    expect(nameSlug('María José')).toBe('Maria-Jose');
    expect(nameSlug('  Ñandú   O’Brien / ../x ')).toBe('Nandu-OBrien-x');
    expect(nameSlug('日本')).toBe('usuario');
    expect(nameSlug('a'.repeat(500))).toHaveLength(60);
  });
});

describe('profile picture names', () => {
  it('keep the spec shape dp-{name}-{milliseconds} and add 128 random bits, so a name and a second do not find a picture', async () => {
    const stored: string[] = [];
    const storage = { put: async (_bucket: string, key: string) => void stored.push(key) } as unknown as Parameters<typeof storeProfilePicture>[0];
    const before = Date.now();
    const bytes = await makeImage();
    // The same name, the same moment: names that cannot be told from the other apart by guessing.
    const keys = await Promise.all(Array.from({ length: 20 }, () => storeProfilePicture(storage, 'Ana Gómez', bytes)));
    expect([...stored].sort()).toEqual([...keys].sort());
    const randoms = new Set<string>();
    for (const key of keys) {
      const match = /^dp-Ana-Gomez-(\d{13})-([A-Za-z0-9_-]{22})\.png$/.exec(key);
      expect(match, key).not.toBeNull();
      expect(Number(match![1])).toBeGreaterThanOrEqual(before);
      expect(Buffer.from(match![2]!, 'base64url')).toHaveLength(16);
      randoms.add(match![2]!);
    }
    expect(randoms.size).toBe(keys.length);
  });
});

describe.each(testDialects)('profile picture checks (%s)', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
  });
  afterEach(async () => t.close());

  const register = async (profileImage: FilePart) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      ...(await multipart({ name: 'Ana', email: 'ana@corto.test', password: 'secreto1', profileImage })),
    });
  const usersCount = async () => (await t.database.db.selectFrom('users').select('id').execute()).length;

  it('refuses a text file named .png and declared image/png: the bytes decide', async () => {
    const response = await register({ bytes: Buffer.from('no soy una imagen\n'.repeat(20)), filename: 'foto.png', type: 'image/png' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ profileImage: ['La imagen de perfil debe ser PNG, JPEG, WebP o GIF'] });
    expect(await usersCount()).toBe(0);
  });

  it('refuses an SVG, which could carry script', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
    const response = await register({ bytes: Buffer.from(svg), filename: 'foto.svg', type: 'image/svg+xml' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.profileImage).toEqual(['La imagen de perfil debe ser PNG, JPEG, WebP o GIF']);
  });

  it('accepts a real PNG whatever its name and declared type', async () => {
    const response = await register({ bytes: await makeImage('png'), filename: 'foto.txt', type: 'text/plain' });
    expect(response.statusCode).toBe(201);
    expect(response.json().user.profileImage).toMatch(/\.png$/);
  });

  it('refuses a file over 5 MB with a 413 envelope and stores nothing', async () => {
    const big = Buffer.concat([await makeImage('png'), Buffer.alloc(5 * 1024 * 1024 + 10)]);
    const response = await register({ bytes: big, filename: 'grande.png', type: 'image/png' });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatchObject({ code: 'payload_too_large', message: 'La imagen de perfil no puede superar los 5 MB' });
    expect(await usersCount()).toBe(0);
  });

  it('refuses absurd dimensions', async () => {
    const response = await register({ bytes: await makeImage('png', 7000, 8), filename: 'tira.png', type: 'image/png' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.profileImage).toEqual(['La imagen de perfil no puede medir más de 6000 píxeles de lado']);
  });

  it('refuses a truncated image that only starts like a PNG', async () => {
    const bytes = (await makeImage('png', 300, 300)).subarray(0, 60);
    const response = await register({ bytes, filename: 'rota.png', type: 'image/png' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.profileImage).toHaveLength(1);
  });

  it('re-encodes: bounded to 512 px and without the metadata it came with', async () => {
    const bytes = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#0aa' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'secreto-exif', Software: 'camara' } })
      .toBuffer();
    expect((await sharp(bytes).metadata()).exif).toBeDefined();
    const response = await register({ bytes, filename: 'foto.jpg', type: 'image/jpeg' });
    expect(response.statusCode).toBe(201);
    const address = response.json().user.profileImage as string;
    const stored = await readFile(path.join(t.config.dataDir, 'storage', address.replace(/^\/storage\//, '')));
    const meta = await sharp(stored).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([512, 256, 'jpeg']);
    expect(meta.exif).toBeUndefined();
    expect(stored.includes(Buffer.from('secreto-exif'))).toBe(false);
  });
});
