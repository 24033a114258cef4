import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';
import { hashTokenSecret, newTokenSecret } from './token-secret';
import { insertToken } from './tokens.queries';
import { bearer, createTokenAs } from './tokens.test-support';
import { personalWorkspaceIdOf } from '../workspaces/personal-workspace';

describe.each(testDialects)('personal API tokens on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  let userId: number;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const user = await registerUser(t.app);
    cookie = user.cookie;
    userId = user.user.id;
  });
  afterAll(async () => t?.close());

  it('shows the secret once, lists the token by its prefix, and stores only a hash', async () => {
    const { token, secret } = await createTokenAs(t.app, cookie, { name: 'Hoja de cálculo', scope: 'read' });
    expect(secret).toMatch(/^corto_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({ name: 'Hoja de cálculo', scope: 'read', expiresAt: null, lastUsedAt: null });
    expect(secret.startsWith(token.prefix)).toBe(true);
    expect(token.prefix.length).toBeLessThan(16);

    const list = await t.app.inject({ method: 'GET', url: '/api/tokens', headers: { cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.json().tokens.map((one: { id: number }) => one.id)).toContain(token.id);
    expect(list.body).not.toContain(secret);

    const row = await t.database.db.selectFrom('api_tokens').selectAll().where('id', '=', token.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashTokenSecret(secret));
    expect(JSON.stringify(row)).not.toContain(secret.slice(12));
  });

  it('refuses a bad creation with Spanish field messages', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: { cookie, ...sameOrigin },
      payload: { name: '', scope: 'admin', expiresAt: '2001-01-01T00:00:00Z' },
    });
    expect(response.statusCode).toBe(400);
    const { fields } = response.json().error;
    expect(fields.name).toContain('El nombre es obligatorio');
    expect(fields.scope[0]).toMatch(/read/);
    expect(fields.expiresAt).toContain('La fecha de caducidad debe ser futura');
  });

  it('lets a token read and write the links of its owner, without Origin or cookie', async () => {
    const { secret } = await createTokenAs(t.app, cookie, { scope: 'write' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/links',
      headers: bearer(secret),
      payload: { title: 'Desde un script', longUrl: 'https://example.com/script' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().link.id;
    const list = await t.app.inject({ method: 'GET', url: '/api/links', headers: bearer(secret) });
    expect(list.json().links.map((link: { id: number }) => link.id)).toContain(id);
    const stats = await t.app.inject({ method: 'GET', url: `/api/links/${id}/stats`, headers: bearer(secret) });
    expect(stats.statusCode).toBe(200);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/links/${id}`, headers: bearer(secret) });
    expect(removed.statusCode).toBe(204);
  });

  it('lets a read token GET but answers its writes 403 insufficient_scope', async () => {
    const { secret } = await createTokenAs(t.app, cookie, { scope: 'read' });
    expect((await t.app.inject({ method: 'GET', url: '/api/links', headers: bearer(secret) })).statusCode).toBe(200);
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/links',
      headers: bearer(secret),
      payload: { title: 'No', longUrl: 'https://example.com/no' },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json().error.code).toBe('insufficient_scope');
    const count = await t.database.db.selectFrom('urls').select((eb) => eb.fn.countAll().as('n')).where('title', '=', 'No').executeTakeFirst();
    expect(Number(count?.n)).toBe(0);
  });

  it('never lets a token reach /api/tokens, /api/account* or /api/admin*, routes or not', async () => {
    const { secret } = await createTokenAs(t.app, cookie, { scope: 'write' });
    for (const [method, url] of [
      ['GET', '/api/tokens'],
      ['POST', '/api/tokens'],
      ['DELETE', '/api/tokens/1'],
      ['GET', '/api/account'],
      ['DELETE', '/api/account'],
      ['GET', '/api/account/sessions'],
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/anything/at/all'],
      ['GET', '/%61pi/tokens'],
      ['GET', '/api/Tokens'],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: bearer(secret), payload: method === 'POST' ? { name: 'x', scope: 'write' } : undefined });
      expect({ url, status: response.statusCode, code: response.json().error.code }).toEqual({ url, status: 403, code: 'forbidden' });
    }
    // Nor the session routes: a token cannot sign anyone in or out.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: bearer(secret) })).statusCode).toBe(403);
    // Still one token more than before: the POST above made nothing.
    const rows = await t.database.db.selectFrom('api_tokens').select('id').where('name', '=', 'x').execute();
    expect(rows).toHaveLength(0);
  });

  it('answers a missing, malformed, unknown or expired token with 401 and WWW-Authenticate: Bearer', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/api/links' });
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);

    const expired = newTokenSecret();
    await insertToken(t.database.db, { userId, workspaceId: await personalWorkspaceIdOf(t.database.db, userId), name: 'Vieja', scope: 'write', prefix: expired.prefix, hash: expired.hash, expiresAt: Date.now() - 1000 });
    for (const secret of ['', 'no-es-un-token', newTokenSecret().secret, expired.secret]) {
      const response = await t.app.inject({ method: 'GET', url: '/api/links', headers: bearer(secret) });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="corto", error="invalid_token"/);
      expect(response.json().error.message).toBe('El token de API no es válido, ha caducado o ha sido revocado.');
    }
  });

  it('stops a revoked token at once, even though it was cached', async () => {
    const { token, secret } = await createTokenAs(t.app, cookie);
    expect((await t.app.inject({ method: 'GET', url: '/api/links', headers: bearer(secret) })).statusCode).toBe(200);
    const revoke = await t.app.inject({ method: 'DELETE', url: `/api/tokens/${token.id}`, headers: { cookie, ...sameOrigin } });
    expect(revoke.statusCode).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: '/api/links', headers: bearer(secret) });
    expect(after.statusCode).toBe(401);
    // Someone else's token id, or one already revoked, is 404.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/tokens/${token.id}`, headers: { cookie, ...sameOrigin } })).statusCode).toBe(404);
  });

  it("records a token's last use", async () => {
    const { token, secret } = await createTokenAs(t.app, cookie, { scope: 'read' });
    await t.app.inject({ method: 'GET', url: '/api/links', headers: bearer(secret) });
    for (let i = 0; i < 50; i++) {
      const list = await t.app.inject({ method: 'GET', url: '/api/tokens', headers: { cookie } });
      const found = list.json().tokens.find((one: { id: number }) => one.id === token.id);
      if (found.lastUsedAt) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('lastUsedAt never set');
  });

  it("keeps another user's tokens out of reach", async () => {
    const other = await registerUser(t.app);
    const { token } = await createTokenAs(t.app, other.cookie);
    const list = await t.app.inject({ method: 'GET', url: '/api/tokens', headers: { cookie } });
    expect(list.json().tokens.map((one: { id: number }) => one.id)).not.toContain(token.id);
    const revoke = await t.app.inject({ method: 'DELETE', url: `/api/tokens/${token.id}`, headers: { cookie, ...sameOrigin } });
    expect(revoke.statusCode).toBe(404);
  });

  it('still applies the Origin check to cookie writes', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: { cookie, origin: 'https://malo.example' },
      payload: { name: 'CSRF', scope: 'write' },
    });
    expect(response.statusCode).toBe(403);
  });
});
