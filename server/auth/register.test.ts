import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { type FilePart, makeImage, multipart, registerUser, sessionCookie } from '../test/test-users';
import { hashPassword } from './passwords';

const png = async (): Promise<FilePart> => ({ bytes: await makeImage(), filename: 'yo.png', type: 'image/png' });

describe.each(testDialects)('POST /api/auth/register (%s)', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
  });
  afterEach(async () => t.close());

  const register = async (fields: Parameters<typeof multipart>[0]) =>
    t.app.inject({ method: 'POST', url: '/api/auth/register', ...(await multipart(fields)) });
  const storedFile = (publicUrl: string) =>
    readFile(path.join(t.config.dataDir, 'storage', decodeURIComponent(publicUrl.replace(/^\/storage\//, ''))));

  it('creates the account, answers 201 { user } and signs the user in with a safe cookie', async () => {
    const response = await register({ name: 'María José', email: 'maria@corto.test', password: 'secreto1', profileImage: await png() });
    expect(response.statusCode).toBe(201);
    const { user } = response.json();
    expect(user).toEqual({
      id: expect.any(Number),
      email: 'maria@corto.test',
      name: 'María José',
      profileImage: expect.stringMatching(/^\/storage\/profile-pictures\/dp-Maria-Jose-\d{13}-[\w-]{22}\.png$/),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      role: 'user',
      totp: false,
    });
    const cookie = response.cookies.find((c) => c.name === 'corto_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: sessionCookie(response) } });
    expect(session.json().user).toEqual(user);
    const picture = await t.app.inject({ method: 'GET', url: user.profileImage });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
  });

  it('stores the password as an argon2id hash, never as given', async () => {
    await registerUser(t.app, { email: 'hash@corto.test', password: 'mi-clave-secreta' });
    const row = await t.database.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain('mi-clave-secreta');
  });

  it('marks the cookie Secure when the public address is https', async () => {
    const secure = await createTestApp(dialect, { PUBLIC_BASE_URL: 'https://corto.example' });
    try {
      const body = await multipart({ name: 'Ana', email: 'ana@corto.test', password: 'secreto1', profileImage: await png() });
      const response = await secure.app.inject({ method: 'POST', url: '/api/auth/register', ...body });
      expect(response.cookies.find((c) => c.name === 'corto_session')?.secure).toBe(true);
    } finally {
      await secure.close();
    }
  });

  it('refuses an e-mail already registered, whatever its case, and keeps the first account', async () => {
    await registerUser(t.app, { email: 'Pepa@Corto.test' });
    const response = await register({ name: 'Otra', email: 'pepa@CORTO.TEST', password: 'secreto1', profileImage: await png() });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({ code: 'conflict', fields: { email: ['Ya existe una cuenta con este email'] } });
    const rows = await t.database.db.selectFrom('users').select('email').execute();
    expect(rows).toEqual([{ email: 'Pepa@Corto.test' }]);
  });

  it('reports every field at once, with the spec wording, when all are missing', async () => {
    const response = await register({});
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'validation',
      message: 'Revisa los datos del formulario.',
      fields: {
        name: ['El nombre es obligatorio'],
        email: ['El email es obligatorio'],
        password: ['La contraseña es obligatoria'],
        profileImage: ['La imagen de perfil es obligatoria'],
      },
    });
  });

  it('reports a bad e-mail and a short password, and an empty picture as missing', async () => {
    const empty: FilePart = { bytes: Buffer.alloc(0), filename: '', type: 'application/octet-stream' };
    const response = await register({ name: 'Ana', email: 'no-es-un-email', password: '123', profileImage: empty });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({
      email: ['El email no es válido'],
      password: ['La contraseña debe tener al menos 6 caracteres'],
      profileImage: ['La imagen de perfil es obligatoria'],
    });
  });

  it('refuses the most common passwords, whatever their case, and creates no account', async () => {
    for (const password of ['123456', 'password', 'QWERTY123', 'Iloveyou']) {
      const response = await register({ name: 'Ana', email: 'comun@corto.test', password, profileImage: await png() });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toEqual({
        code: 'validation',
        message: 'Revisa los datos del formulario.',
        fields: { password: ['Esta contraseña es demasiado común'] },
      });
    }
    const users = await t.database.db.selectFrom('users').select('id').execute();
    expect(users).toEqual([]);
  });

  it('says a password is too common together with every other message, and only once it is long enough', async () => {
    const response = await register({ email: 'no-es-un-email', password: 'qwerty', profileImage: await png() });
    expect(response.json().error.fields).toEqual({
      name: ['El nombre es obligatorio'],
      email: ['El email no es válido'],
      password: ['Esta contraseña es demasiado común'],
    });
    const short = await register({ name: 'Ana', email: 'corta@corto.test', password: '1234', profileImage: await png() });
    expect(short.json().error.fields).toEqual({ password: ['La contraseña debe tener al menos 6 caracteres'] });
  });

  it('still lets an existing user with a common password sign in', async () => {
    await registerUser(t.app, { email: 'antigua@corto.test', password: 'clave-rara-2024' });
    // An account created before the list was checked.
    await t.database.db.updateTable('users').set({ password_hash: await hashPassword('123456') }).execute();
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'antigua@corto.test', password: '123456' } });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a 10,000-character name with a Spanish message', async () => {
    const response = await register({ name: 'a'.repeat(10_000), email: 'largo@corto.test', password: 'secreto1', profileImage: await png() });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ name: ['El nombre no puede superar los 100 caracteres'] });
  });

  it('answers malformed multipart with a 4xx envelope', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: '--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nAna\r\n--xy',
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json().error.message).toEqual(expect.any(String));
  });

  it('keeps the format of JPEG, WebP and GIF pictures, in the extension too', async () => {
    for (const [format, extension, type] of [
      ['jpeg', 'jpg', 'image/jpeg'],
      ['webp', 'webp', 'image/webp'],
      ['gif', 'gif', 'image/gif'],
    ] as const) {
      const bytes = await makeImage(format);
      const response = await register({
        name: `Foto ${format}`,
        email: `${format}@corto.test`,
        password: 'secreto1',
        profileImage: { bytes, filename: `foto.${extension}`, type },
      });
      expect(response.statusCode).toBe(201);
      const stored = response.json().user.profileImage as string;
      expect(stored).toMatch(new RegExp(`/dp-Foto-${format}-\\d{13}-[\\w-]{22}\\.${extension}$`));
      expect((await sharp(await storedFile(stored)).metadata()).format).toBe(format);
    }
  });
});
