import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { makeImage, multipart, registerUser } from '../test/test-users';

describe.each(testDialects)('abuse guards (%s)', (dialect) => {
  let t: TestApp | undefined;
  afterEach(async () => t?.close());

  const login = (app: TestApp, email: string, remoteAddress = '203.0.113.1', headers: Record<string, string> = {}) =>
    app.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, headers, payload: { email, password: 'incorrecta' } });

  it('limits login attempts per IP, answering 429 with the Spanish envelope', async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '3', AUTH_RATE_LIMIT_EMAIL: '100' });
    for (let i = 0; i < 3; i++) expect((await login(t, `a${i}@corto.test`)).statusCode).toBe(401);
    const limited = await login(t, 'a9@corto.test');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      error: { code: 'rate_limited', message: 'Demasiados intentos. Espera un momento y vuelve a probar.' },
    });
    // Another client is not affected.
    expect((await login(t, 'a9@corto.test', '203.0.113.2')).statusCode).toBe(401);
  });

  it('limits wrong passwords per e-mail and client, and slows clients the account does not know once many have failed', async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '100', AUTH_RATE_LIMIT_EMAIL: '2' });
    expect((await login(t, 'victima@corto.test', '198.51.100.1')).statusCode).toBe(401);
    expect((await login(t, 'VICTIMA@corto.test', '198.51.100.1')).statusCode).toBe(401);
    const limited = await login(t, 'victima@corto.test', '198.51.100.1');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Other clients still get their tries, up to twice the limit on the account...
    expect((await login(t, 'victima@corto.test', '198.51.100.2')).statusCode).toBe(401);
    expect((await login(t, 'victima@corto.test', '198.51.100.3')).statusCode).toBe(401);
    // ...then one attempt per backoff period.
    expect((await login(t, 'victima@corto.test', '198.51.100.4')).statusCode).toBe(401);
    expect((await login(t, 'victima@corto.test', '198.51.100.5')).statusCode).toBe(429);
    expect((await login(t, 'otra@corto.test', '198.51.100.5')).statusCode).toBe(401);
  });

  it('limits registrations per IP', async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '2' });
    await registerUser(t.app);
    await registerUser(t.app);
    const body = await multipart({
      name: 'Tercera',
      email: 'tercera@corto.test',
      password: 'secreto1',
      profileImage: { bytes: await makeImage(), filename: 'a.png', type: 'image/png' },
    });
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/register', ...body });
    expect(response.statusCode).toBe(429);
    expect(response.json().error.code).toBe('rate_limited');
  });

  it('turns the limits off with 0', async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '0', AUTH_RATE_LIMIT_EMAIL: '0' });
    for (let i = 0; i < 40; i++) expect((await login(t, 'mucho@corto.test')).statusCode).toBe(401);
  });

  it('refuses a state-changing API call from another origin with 403', async () => {
    t = await createTestApp(dialect, { PUBLIC_BASE_URL: 'https://corto.example' });
    const { cookie } = await registerUser(t.app);
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, origin: 'https://malo.example' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ error: { code: 'forbidden', message: 'Petición rechazada: viene de otro sitio.' } });
    // The session survived.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } })).statusCode).toBe(200);
  });

  it('lets the public origin, the request’s own host and calls without Origin through', async () => {
    t = await createTestApp(dialect, { PUBLIC_BASE_URL: 'https://corto.example' });
    expect((await login(t, 'x@corto.test', '203.0.113.5', { origin: 'https://corto.example' })).statusCode).toBe(401);
    expect((await login(t, 'x@corto.test', '203.0.113.5', { origin: 'http://localhost:80', host: 'localhost:80' })).statusCode).toBe(401);
    expect((await login(t, 'x@corto.test')).statusCode).toBe(401);
    expect((await login(t, 'x@corto.test', '203.0.113.5', { origin: 'null' })).statusCode).toBe(403);
  });
});
