import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';
import { createLinkAs } from './links.test-support';

describe.each(testDialects)('GET and DELETE /api/links/:id on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    ({ cookie } = await registerUser(t.app));
  });
  afterEach(async () => t.close());

  // who: a session cookie, or null for an anonymous caller.
  const call = (method: 'GET' | 'DELETE', id: number | string, who: string | null = cookie) =>
    t.app.inject({ method, url: `/api/links/${id}`, headers: who ? { cookie: who, ...sameOrigin } : {} });

  it("answers the caller's own link as created", async () => {
    const link = await createLinkAs(t.app, cookie, { title: 'Detalle', customUrl: 'detalle-1' });
    const response = await call('GET', link.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ link });
  });

  it("answers 404 for another user's link, for GET and DELETE, and leaves it in place", async () => {
    const other = await registerUser(t.app);
    const theirs = await createLinkAs(t.app, other.cookie);
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await call(method, theirs.id);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
    expect((await call('GET', theirs.id, other.cookie)).statusCode).toBe(200);
  });

  it('answers 404 with the envelope for ids that name no link', async () => {
    for (const id of ['999999', 'abc', '0', '-1', '1.5', '1e3', '99999999999999999999']) {
      for (const method of ['GET', 'DELETE'] as const) {
        const response = await call(method, id);
        expect(response.statusCode, `${method} ${id}`).toBe(404);
        expect(response.json().error.code).toBe('not_found');
      }
    }
  });

  it('deletes the link and its QR file; afterwards it is 404 and gone from the list', async () => {
    const link = await createLinkAs(t.app, cookie);
    const file = path.join(t.config.dataDir, 'storage', 'qrs', `qr-${link.shortCode}.png`);
    expect(existsSync(file)).toBe(true);

    const response = await call('DELETE', link.id);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await call('GET', link.id)).statusCode).toBe(404);
    expect((await call('DELETE', link.id)).statusCode).toBe(404);
    expect(existsSync(file)).toBe(false);
    const listed = await t.app.inject({ method: 'GET', url: '/api/links', headers: { cookie } });
    expect(listed.json().totals.links).toBe(0);
  });

  it('stops redirecting the short code and the alias as soon as the link is deleted', async () => {
    const link = await createLinkAs(t.app, cookie, { longUrl: 'https://example.com/destino', customUrl: 'Borrame' });
    // Visit both first, so the redirect cache holds them.
    for (const code of [link.shortCode, 'Borrame', 'borrame']) {
      const visit = await t.app.inject({ method: 'HEAD', url: `/${code}` });
      expect(visit.statusCode).toBe(302);
      expect(visit.headers.location).toBe('https://example.com/destino');
    }
    expect((await call('DELETE', link.id)).statusCode).toBe(204);
    for (const code of [link.shortCode, 'Borrame', 'borrame']) {
      expect((await t.app.inject({ method: 'HEAD', url: `/${code}` })).statusCode).toBe(404);
    }
  });

  it('answers 401 to an anonymous caller', async () => {
    const link = await createLinkAs(t.app, cookie);
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await call(method, link.id, null);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('unauthorized');
    }
    expect((await call('GET', link.id)).statusCode).toBe(200);
  });
});
