import { errorMessages } from '@common/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';

// Guessing a picture's name by trying is throttled like guessing short addresses: a client's
// 404s under /storage are counted (REDIRECT_MISS_LIMIT a minute), then it waits.

describe.each(testDialects)('404s under /storage on %s', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect, { REDIRECT_MISS_LIMIT: '3', TRUST_PROXY: 'true' });
  });
  afterEach(async () => t.close());

  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  const get = (url: string, client: string, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url, headers: { 'x-forwarded-for': client } });

  it('lets a client miss REDIRECT_MISS_LIMIT times a minute, then answers its every /storage request with a Spanish 429', async () => {
    const picture = '/storage/profile-pictures/dp-Ana-1700000000000-AAAAAAAAAAAAAAAAAAAAAA.png';
    await t.app.appContext.storage.put('profile-pictures', picture.split('/').at(-1)!, png, 'image/png');
    const guesser = '203.0.113.7';
    expect((await get(picture, guesser)).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect((await get(`/storage/profile-pictures/dp-Ana-1700000000000-guess${i}.png`, guesser, i === 2 ? 'HEAD' : 'GET')).statusCode).toBe(404);
    }
    // Refused, the picture that exists included: a hit must not stand out from a miss.
    for (const url of ['/storage/profile-pictures/dp-Ana-1700000000000-guess9.png', picture, '/storage/qrs/qr-nada.png']) {
      const refused = await get(url, guesser);
      expect(refused.statusCode, url).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.headers['content-type']).toContain('text/plain');
      expect(refused.body).toBe(errorMessages.storageTooManyMisses);
    }
    // Anyone else is served, and the rest of the site is not touched for the guesser.
    expect((await get(picture, '203.0.113.8')).statusCode).toBe(200);
    expect((await get('/api/health', guesser)).statusCode).toBe(200);
  });

  it('does not count files that exist, nor 404s elsewhere', async () => {
    await t.app.appContext.storage.put('qrs', 'qr-abc123.png', png, 'image/png');
    const client = '203.0.113.9';
    for (let i = 0; i < 5; i++) expect((await get('/storage/qrs/qr-abc123.png', client)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await get(`/api/no-existe-${i}`, client)).statusCode).toBe(404);
    expect((await get('/storage/qrs/qr-abc123.png', client)).statusCode).toBe(200);
  });
});
