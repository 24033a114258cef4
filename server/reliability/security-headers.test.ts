import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { migrateToLatest } from '../db/migrate';
import { createLinkAs } from '../links/links.test-support';
import { openTestDatabase } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';

// Every kind of answer the server gives (pages, built files, stored files, API successes and
// refusals, the redirect, its 404, framework errors) carries the security headers.

const shell = '<!doctype html><html lang="es"><head><script type="module" src="/assets/app-1.js"></script></head><body><div id="root"></div></body></html>';

/** The CSP as { directive: [sources] }. */
function policy(header: string | string[] | number | undefined): Record<string, string[]> {
  expect(typeof header, 'Content-Security-Policy present').toBe('string');
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function expectSecurityHeaders(response: LightMyRequestResponse, label: string) {
  const csp = policy(response.headers['content-security-policy']);
  expect(csp['default-src'], label).toEqual(["'self'"]);
  expect(csp['script-src'], label).toEqual(["'self'"]);
  expect(csp['script-src-attr'], label).toEqual(["'none'"]);
  expect(csp['style-src'], label).toEqual(["'self'"]);
  expect(csp['object-src'], label).toEqual(["'none'"]);
  expect(csp['frame-ancestors'], label).toEqual(["'none'"]);
  expect(csp['img-src'], label).toEqual(["'self'", 'data:', 'blob:']);
  expect(csp, `${label}: no upgrade-insecure-requests (plain-http installs)`).not.toHaveProperty('upgrade-insecure-requests');
  expect(response.headers['x-content-type-options'], label).toBe('nosniff');
  expect(response.headers['referrer-policy'], label).toBe('strict-origin-when-cross-origin');
  expect(response.headers['x-frame-options'], label).toBe('DENY');
}

describe('security headers', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  let cookie: string;
  let shortCode: string;
  let qr: string;

  async function start(env: Record<string, string>) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'corto-headers-'));
    const webDir = path.join(dataDir, 'web');
    await mkdir(path.join(webDir, 'assets'), { recursive: true });
    await writeFile(path.join(webDir, 'index.html'), shell);
    await writeFile(path.join(webDir, 'assets', 'app-1.js'), 'console.log("corto")');
    await writeFile(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const { database, drop } = await openTestDatabase('sqlite', dataDir);
    await migrateToLatest(database.db);
    const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env }), webDir };
    const built = await buildApp({ config, database });
    return {
      app: built,
      async close() {
        await built.close();
        await database.close();
        await drop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }

  beforeAll(async () => {
    ({ app, close } = await start({ AUTH_RATE_LIMIT_IP: '3' }));
    ({ cookie } = await registerUser(app));
    const link = await createLinkAs(app, cookie, { customUrl: 'cabeceras' });
    shortCode = link.shortCode;
    qr = new URL(link.qr, 'http://localhost').pathname;
  });
  afterAll(async () => close?.());

  it('are on every page, file and API answer, the redirect and every refusal included', async () => {
    const requests: Array<[string, InjectOptions, number]> = [
      ['landing page', { url: '/' }, 200],
      ['client route', { url: '/dashboard' }, 200],
      ['client route with id', { url: '/link/12' }, 200],
      ['built script', { url: '/assets/app-1.js' }, 200],
      ['favicon', { url: '/favicon.svg' }, 200],
      ['stored QR', { url: qr }, 200],
      ['missing stored file', { url: '/storage/qrs/nada.png' }, 404],
      ['redirect', { url: `/${shortCode}` }, 302],
      ['redirect by alias, HEAD', { method: 'HEAD', url: '/CABECERAS' }, 302],
      ['unknown short code page', { url: '/no-existe-xyz' }, 404],
      ['impossible short code page', { url: '/a.b.c' }, 404],
      ['undecodable address', { url: '/%ZZ' }, 400],
      ['health', { url: '/api/health' }, 200],
      ['session, signed in', { url: '/api/auth/session', headers: { cookie } }, 200],
      ['session, anonymous', { url: '/api/auth/session' }, 200],
      ['links', { url: '/api/links', headers: { cookie } }, 200],
      ['links, anonymous', { url: '/api/links' }, 401],
      ['create, invalid', { method: 'POST', url: '/api/links', headers: { cookie, ...sameOrigin }, payload: { title: '' } }, 400],
      ['create, malformed JSON', { method: 'POST', url: '/api/links', headers: { cookie, ...sameOrigin, 'content-type': 'application/json' }, payload: '{' }, 400],
      ['create, text/plain', { method: 'POST', url: '/api/links', headers: { cookie, ...sameOrigin, 'content-type': 'text/plain' }, payload: 'x' }, 415],
      ['create, too large', { method: 'POST', url: '/api/links', headers: { cookie, ...sameOrigin, 'content-type': 'application/json' }, payload: JSON.stringify({ title: 'x'.repeat(1.1e6) }) }, 413],
      ['create, cross-site', { method: 'POST', url: '/api/links', headers: { cookie, origin: 'https://evil.example' }, payload: { title: 'a' } }, 403],
      ['unknown API route', { url: '/api/nada' }, 404],
      ['link not found', { url: '/api/links/999', headers: { cookie } }, 404],
      ['stats', { url: '/api/links/1/stats', headers: { cookie } }, 200],
      ['logout', { method: 'POST', url: '/api/auth/logout' }, 204],
    ];
    for (const [label, options, status] of requests) {
      const response = await app.inject({ method: 'GET', ...options });
      expect(response.statusCode, `${label}: ${response.body.slice(0, 200)}`).toBe(status);
      expectSecurityHeaders(response, label);
    }
    // A burst of failed logins past the per-address limit: the 429 carries them too.
    let limited: LightMyRequestResponse | undefined;
    for (let attempt = 0; attempt < 5 && !limited; attempt += 1) {
      const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'x@corto.test', password: 'secreto-1' } });
      if (response.statusCode === 429) limited = response;
    }
    expect(limited?.statusCode).toBe(429);
    expectSecurityHeaders(limited!, 'rate limited');
  });

  it('keeps API answers out of caches, lets only stored files be embedded elsewhere, and sends HSTS only on https', async () => {
    const https = await start({ PUBLIC_BASE_URL: 'https://corto.example' });
    const http = await start({});
    try {
      for (const [target, onHttps] of [[http.app, false], [https.app, true]] as const) {
        const scheme = onHttps ? 'https' : 'http';
        const user = await registerUser(target);
        const link = await createLinkAs(target, user.cookie, { title: 'Privado' });
        const signedIn = { cookie: user.cookie, ...sameOrigin };
        const answers: Array<[string, InjectOptions, Record<string, string | undefined>]> = [
          // A route's own Cache-Control stays (the statistics say private, no-store).
          ['stats', { url: `/api/links/${link.id}/stats`, headers: { cookie: user.cookie } }, { 'cache-control': 'private, no-store', 'cross-origin-resource-policy': 'same-origin' }],
          ['stored QR', { url: new URL(link.qr, 'http://localhost').pathname }, { 'cross-origin-resource-policy': 'cross-origin' }],
          ['stored picture', { url: new URL(user.user.profileImage, 'http://localhost').pathname }, { 'cross-origin-resource-policy': 'cross-origin' }],
          ['page', { url: '/' }, { 'cache-control': 'no-cache', 'cross-origin-resource-policy': 'same-origin' }],
          ['built script', { url: '/assets/app-1.js' }, { 'cross-origin-resource-policy': 'same-origin' }],
          // A short link is followed from anywhere, an <img> on another site included.
          ['redirect', { url: `/${link.shortCode}` }, { 'cache-control': 'no-store', 'cross-origin-resource-policy': undefined }],
        ];
        for (const [label, options, expected] of answers) {
          const response = await target.inject({ method: 'GET', ...options });
          expect(response.statusCode, `${scheme}: ${label}`).toBeLessThan(400);
          for (const [name, value] of Object.entries(expected)) expect(response.headers[name], `${scheme}: ${label}: ${name}`).toBe(value);
        }
        const api: Array<[string, InjectOptions, number]> = [
          ['session', { url: '/api/auth/session', headers: signedIn }, 200],
          ['session, anonymous', { url: '/api/auth/session' }, 200],
          ['links', { url: '/api/links', headers: signedIn }, 200],
          ['one link', { url: `/api/links/${link.id}`, headers: signedIn }, 200],
          ['links, encoded path', { url: '/%61pi/links', headers: signedIn }, 200],
          ['login', { method: 'POST', url: '/api/auth/login', payload: { email: user.user.email, password: user.password } }, 200],
          ['login, wrong', { method: 'POST', url: '/api/auth/login', payload: { email: user.user.email, password: 'otra-cosa-1' } }, 401],
          ['create', { method: 'POST', url: '/api/links', headers: signedIn, payload: { title: 'Otro', longUrl: 'https://example.com/b' } }, 201],
          ['create, cross-site', { method: 'POST', url: '/api/links', headers: { cookie: user.cookie, origin: 'https://evil.example' }, payload: {} }, 403],
          ['create, form', { method: 'POST', url: '/api/links', headers: { ...signedIn, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=b' }, 415],
          ['unknown API route', { url: '/api/nada' }, 404],
          ['health', { url: '/api/health' }, 200],
          ['logout', { method: 'POST', url: '/api/auth/logout', headers: signedIn }, 204],
        ];
        for (const [label, options, status] of api) {
          const response = await target.inject({ method: 'GET', ...options });
          const named = `${scheme}: ${label}: ${response.body.slice(0, 200)}`;
          expect(response.statusCode, named).toBe(status);
          expect(response.headers['cache-control'], named).toBe('no-store');
          expect(response.headers['cross-origin-resource-policy'], named).toBe('same-origin');
        }
        for (const [label, options] of [...api, ...answers]) {
          const response = await target.inject({ method: 'GET', ...options });
          const hsts = response.headers['strict-transport-security'];
          if (onHttps) expect(hsts, `${scheme}: ${label}`).toBe('max-age=31536000; includeSubDomains');
          else expect(hsts, `${scheme}: ${label}`).toBeUndefined();
        }
      }
    } finally {
      await https.close();
      await http.close();
    }
    // Two servers, each signing up a user (a password hash) and asking a dozen routes: 6 s alone,
    // over 20 s with CI's three suites on two cores.
  }, 60_000);

  it('the built page has no inline script for the policy to block', async () => {
    const page = await app.inject({ url: '/' });
    for (const tag of page.body.match(/<script\b[^>]*>/g) ?? []) expect(tag).toMatch(/\bsrc=/);
  });

  it('the session cookie is HttpOnly, SameSite=Lax, for the whole site, Secure behind https, and cleared at logout', async () => {
    const register = async (target: FastifyInstance) => {
      const response = await target.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nadie@corto.test', password: 'secreto-1' } });
      expect(response.headers['set-cookie']).toBeUndefined(); // a refused login sets nothing
      return registerUser(target);
    };
    // Fresh instances: the first test used up this one's login allowance.
    const https = await start({ PUBLIC_BASE_URL: 'https://corto.example' });
    const http = await start({});
    try {
      for (const [target, secure] of [[https.app, true], [http.app, false]] as const) {
        const user = await register(target);
        const login = await target.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.user.email, password: user.password } });
        const cookieLines = [login.headers['set-cookie'] ?? []].flat();
        const cookieLine = cookieLines.find((line) => line.startsWith('corto_session=')) ?? '';
        expect(cookieLine).toMatch(/^corto_session=[A-Za-z0-9_-]{43};/);
        expect(cookieLine).toMatch(/; HttpOnly/i);
        expect(cookieLine).toMatch(/; SameSite=Lax/i);
        expect(cookieLine).toMatch(/; Path=\/(;|$)/);
        expect(cookieLine).toMatch(/; Expires=/);
        expect(/; Secure/i.test(cookieLine), `Secure on ${secure ? 'https' : 'http'}`).toBe(secure);
        // The browser's "known device" mark for the login guard: only ever sent to /api/auth.
        const deviceLine = cookieLines.find((line) => line.startsWith('corto_device=')) ?? '';
        expect(deviceLine).toMatch(/^corto_device=[A-Za-z0-9_-]{22}; Max-Age=\d+; Path=\/api\/auth; HttpOnly;/);
        expect(deviceLine).toMatch(/; SameSite=Lax/i);
        expect(/; Secure/i.test(deviceLine)).toBe(secure);
        const logout = await target.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: user.cookie, ...sameOrigin } });
        expect(String(logout.headers['set-cookie'])).toMatch(/^corto_session=;.*Expires=Thu, 01 Jan 1970/);
      }
    } finally {
      await https.close();
      await http.close();
    }
  });
});
