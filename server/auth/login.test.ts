import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser, sessionCookie } from '../test/test-users';

describe.each(testDialects)('POST /api/auth/login (%s)', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
  });
  afterEach(async () => t.close());

  const login = (payload: unknown) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object });

  it('signs in with the right password, whatever the e-mail case, and sets a new session cookie', async () => {
    const { user, cookie: firstCookie } = await registerUser(t.app, { email: 'luis@corto.test', password: 'secreto-luis' });
    const response = await login({ email: 'LUIS@corto.test', password: 'secreto-luis' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user });
    const cookie = sessionCookie(response);
    expect(cookie).not.toBe(firstCookie);
    expect(response.cookies.find((c) => c.name === 'corto_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
    expect(session.json()).toEqual({ user });
  });

  it('gives a wrong password and an unknown e-mail the very same answer, with no cookie', async () => {
    await registerUser(t.app, { email: 'luis@corto.test', password: 'secreto-luis' });
    const wrongPassword = await login({ email: 'luis@corto.test', password: 'otra-clave' });
    const unknownEmail = await login({ email: 'nadie@corto.test', password: 'otra-clave' });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(wrongPassword.body).toBe(unknownEmail.body);
    expect(wrongPassword.json()).toEqual({ error: { code: 'unauthorized', message: 'Email o contraseña incorrectos' } });
    expect(wrongPassword.cookies).toEqual([]);
  });

  it('reports both missing fields at once with the spec wording', async () => {
    const response = await login({});
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({
      email: ['El Email es obligatorio'],
      password: ['La contraseña es obligatoria'],
    });
  });

  it('reports an empty password as both required and too short, and a bad e-mail', async () => {
    const empty = await login({ email: '', password: '' });
    expect(empty.json().error.fields).toEqual({
      email: ['El Email es obligatorio'],
      password: ['La contraseña es obligatoria', 'La contraseña debe tener al menos 6 caracteres'],
    });
    const bad = await login({ email: 'luis', password: '123' });
    expect(bad.json().error.fields).toEqual({
      email: ['Email incorrecto'],
      password: ['La contraseña debe tener al menos 6 caracteres'],
    });
  });

  it('answers malformed JSON with 400 and the envelope', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "luis@corto.test",',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({ code: 'invalid_json', message: 'El cuerpo de la petición no es JSON válido.' });
  });

  it('answers wrongly typed fields with 400, not 500', async () => {
    const response = await login({ email: ['a@b.co'], password: 123456 });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().error.fields).sort()).toEqual(['email', 'password']);
  });
});
