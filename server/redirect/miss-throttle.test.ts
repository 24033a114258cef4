import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { createMissThrottle } from './miss-throttle';
import { insertLink } from './redirect.test-support';

describe('createMissThrottle', () => {
  const minute = 60_000;
  const start = 1_000_000;

  it('lets a client miss `limit` times in a minute from its first miss, then makes it wait for the rest of that minute', () => {
    const throttle = createMissThrottle({ limit: 3 });
    for (let i = 0; i < 3; i += 1) {
      expect(throttle.waitOf('a', start + i)).toBe(0);
      throttle.miss('a', start + i);
    }
    expect(throttle.waitOf('a', start + 10)).toBe(60);
    expect(throttle.waitOf('a', start + 45_500)).toBe(15);
    expect(throttle.waitOf('b', start + 45_500)).toBe(0);
    expect(throttle.waitOf('a', start + minute)).toBe(0);
    throttle.miss('a', start + minute);
    expect(throttle.waitOf('a', start + minute)).toBe(0);
  });

  it('forgets the clients of a finished minute, and never counts more than maxClients at once', () => {
    const throttle = createMissThrottle({ limit: 3, maxClients: 100 });
    for (let i = 0; i < 500; i += 1) throttle.miss(`client-${i}`, start);
    expect(throttle.size).toBe(100);
    throttle.miss('client-0', start + 1);
    throttle.miss('client-0', start + 2);
    expect(throttle.waitOf('client-0', start + 3)).toBeGreaterThan(0);
    throttle.miss('late', start + minute);
    expect(throttle.size).toBe(1);
  });

  it('does nothing with a limit of 0', () => {
    const throttle = createMissThrottle({ limit: 0 });
    for (let i = 0; i < 1000; i += 1) throttle.miss('a', start);
    expect(throttle.waitOf('a', start)).toBe(0);
  });
});

describe.each(testDialects)('REDIRECT_MISS_LIMIT on %s', (dialect) => {
  let t: TestApp;
  afterEach(async () => t?.close());

  const get = (url: string, remoteAddress = '203.0.113.9', headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, remoteAddress, headers });

  it('answers a client past its unknown codes for the minute with a Spanish 429 page, no-store and Retry-After', async () => {
    t = await createTestApp(dialect, { REDIRECT_MISS_LIMIT: '5' });
    for (let i = 0; i < 5; i += 1) expect((await get(`/nohay${i}`)).statusCode).toBe(404);
    for (const method of ['GET', 'HEAD'] as const) {
      const refused = await t.app.inject({ method, url: '/nohay9', remoteAddress: '203.0.113.9' });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['cache-control']).toBe('no-store');
      expect(refused.headers['content-type']).toMatch(/^text\/html/);
      expect(refused.headers['content-security-policy']).toBeDefined();
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      if (method === 'GET') {
        expect(refused.body).toContain('lang="es"');
        expect(refused.body).toContain('Demasiadas peticiones');
        expect(refused.body).not.toContain('<script');
      }
    }
    // Another client is not held up.
    expect((await get('/nohay9', '198.51.100.4')).statusCode).toBe(404);
  });

  it('always answers a cached link, even to a client past its limit; a link not cached yet waits like a miss', async () => {
    t = await createTestApp(dialect, { REDIRECT_MISS_LIMIT: '2' });
    const known = await insertLink(t.database.db);
    const notCachedYet = await insertLink(t.database.db);
    expect((await get(`/${known.shortUrl}`, '198.51.100.7')).statusCode).toBe(302); // now cached
    for (let i = 0; i < 2; i += 1) expect((await get(`/nohay${i}`)).statusCode).toBe(404);
    const hit = await get(`/${known.shortUrl}`);
    expect(hit.statusCode).toBe(302);
    expect(hit.headers.location).toBe(known.originalUrl);
    expect((await get(`/${notCachedYet.shortUrl}`)).statusCode).toBe(429);
    expect((await get(`/${notCachedYet.shortUrl}`, '198.51.100.7')).statusCode).toBe(302);
  });

  it('counts an IPv6 client by its /64, and behind TRUST_PROXY by the address the proxy passes on', async () => {
    t = await createTestApp(dialect, { REDIRECT_MISS_LIMIT: '2', TRUST_PROXY: '127.0.0.1' });
    expect((await get('/nohay1', '2001:db8:1:2::1')).statusCode).toBe(404);
    expect((await get('/nohay2', '2001:db8:1:2::ffff')).statusCode).toBe(404);
    expect((await get('/nohay3', '2001:db8:1:2:abcd::9')).statusCode).toBe(429);
    expect((await get('/nohay3', '2001:db8:1:3::1')).statusCode).toBe(404);

    const viaProxy = (forwardedFor: string) => get('/nohay4', '127.0.0.1', { 'x-forwarded-for': forwardedFor });
    expect((await viaProxy('203.0.113.50')).statusCode).toBe(404);
    expect((await viaProxy('203.0.113.50')).statusCode).toBe(404);
    expect((await viaProxy('203.0.113.50')).statusCode).toBe(429);
    expect((await viaProxy('203.0.113.51')).statusCode).toBe(404);
  });

  it('leaves out paths that cannot be codes (no lookup, nothing learnt), and is off with 0', async () => {
    t = await createTestApp(dialect, { REDIRECT_MISS_LIMIT: '2' });
    for (let i = 0; i < 10; i += 1) expect((await get(`/apple-touch-icon-${i}.png`)).statusCode).toBe(404);
    expect((await get('/nohay1')).statusCode).toBe(404);
    await t.close();

    t = await createTestApp(dialect, { REDIRECT_MISS_LIMIT: '0' });
    for (let i = 0; i < 100; i += 1) expect((await get(`/nohay${i}`)).statusCode).toBe(404);
  });

  it('defaults to 30 unknown codes a minute', async () => {
    t = await createTestApp(dialect);
    for (let i = 0; i < 30; i += 1) expect((await get(`/nohay${i}`)).statusCode).toBe(404);
    expect((await get('/nohay30')).statusCode).toBe(429);
  });
});
