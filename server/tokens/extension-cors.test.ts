import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialects, type TestApp } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { bearer, createTokenAs } from './tokens.test-support';

// The browser extension (extension/) calls the API from chrome-extension://<id> with a token: the
// browser asks first (a preflight), then reads the answer only if the API names its origin.

const extension = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';

describe.each(testDialects)('CORS for browser extensions with a token (%s)', (dialect) => {
  let t: TestApp;
  let cookie: string;
  let secret: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ cookie } = await registerUser(t.app));
    ({ secret } = await createTokenAs(t.app, cookie, { scope: 'write' }));
  });
  afterAll(async () => t?.close());

  const preflight = (origin: string, headers = 'authorization,content-type') =>
    t.app.inject({
      method: 'OPTIONS',
      url: '/api/links',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
    });

  it("answers an extension's preflight for a request carrying a token", async () => {
    const response = await preflight(extension);
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(extension);
    expect(response.headers['access-control-allow-headers']).toContain('authorization');
    expect(response.headers['access-control-allow-methods']).toContain('POST');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it("grants nothing to a web page's preflight, nor to an extension's without a token", async () => {
    for (const response of [await preflight('https://evil.example'), await preflight(extension, 'content-type')]) {
      expect(response.statusCode).not.toBe(204);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('lets the extension read the link its token created, and its refusals', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/links',
      headers: { origin: extension, ...bearer(secret) },
      payload: { title: 'Desde la extensión', longUrl: 'https://example.com/extension' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers['access-control-allow-origin']).toBe(extension);
    expect(created.headers['access-control-allow-credentials']).toBeUndefined();
    expect(created.headers.vary).toMatch(/origin/i);

    const refused = await t.app.inject({ method: 'GET', url: '/api/links', headers: { origin: extension, ...bearer('corto_wrong') } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(extension);
  });

  it('never names an origin on a cookie request nor on a web page\'s bearer request', async () => {
    const withCookie = await t.app.inject({ method: 'GET', url: '/api/links', headers: { origin: extension, cookie } });
    expect(withCookie.headers['access-control-allow-origin']).toBeUndefined();
    const fromPage = await t.app.inject({ method: 'GET', url: '/api/links', headers: { origin: 'https://evil.example', ...bearer(secret) } });
    expect(fromPage.statusCode).toBe(200);
    expect(fromPage.headers['access-control-allow-origin']).toBeUndefined();
  });
});
