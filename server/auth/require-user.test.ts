import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { requireUser, signedInUser } from './require-user';
import { registerSessionSupport } from './session-support';

describe.each(testDialects)('requireUser (%s)', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    // A route of the kind other capabilities write: in a scope with session support (as the API's
    // routes are in app.ts), guarded, reading request.user.
    await t.app.register(async (scope) => {
      await registerSessionSupport(scope, t.app.appContext);
      scope.get('/api/test/me', { preHandler: requireUser }, async (request) => {
        const user = signedInUser(request);
        return { id: user.id, email: user.email, name: user.name, key: user.profileImageKey };
      });
    });
  });
  afterEach(async () => t.close());

  it('answers 401 with the error envelope when there is no session cookie', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test/me' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: { code: 'unauthorized', message: 'Tienes que iniciar sesión.' } });
  });

  it('answers 401 for a made-up session token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test/me', headers: { cookie: 'corto_session=forged' } });
    expect(response.statusCode).toBe(401);
  });

  it('gives the route the signed-in user', async () => {
    const { user, cookie } = await registerUser(t.app, { name: 'Ana Gómez', email: 'ana@corto.test' });
    const response = await t.app.inject({ method: 'GET', url: '/api/test/me', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ id: user.id, email: 'ana@corto.test', name: 'Ana Gómez' });
    expect(body.key).toMatch(/^dp-Ana-Gomez-\d{13}-[\w-]{22}\.png$/);
  });
});
