import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { agents, clickCount, insertLink } from './redirect.test-support';

describe.each(testDialects)('GET /:code on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const flush = () => t.app.appContext.clickWriter.flush();

  it('redirects a short code with 302, the original URL and Cache-Control: no-store', async () => {
    const link = await insertLink(t.database.db);
    const response = await t.app.inject({ method: 'GET', url: `/${link.shortUrl}`, headers: { 'user-agent': agents.desktop } });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(link.originalUrl);
    expect(response.headers['cache-control']).toBe('no-store');
    await flush();
    expect(await clickCount(t.database.db, link.id)).toBe(1);
  });

  it('redirects a custom alias whatever its case', async () => {
    await insertLink(t.database.db, { customUrl: 'Mi-Enlace', originalUrl: 'https://example.org/alias' });
    for (const spelling of ['Mi-Enlace', 'mi-enlace', 'MI-ENLACE']) {
      const response = await t.app.inject({ method: 'GET', url: `/${spelling}` });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('https://example.org/alias');
    }
  });

  it('percent-encodes a stored URL that a header cannot carry as it is', async () => {
    const link = await insertLink(t.database.db, { originalUrl: 'https://example.org/año?q=café' });
    const response = await t.app.inject({ method: 'GET', url: `/${link.shortUrl}` });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('https://example.org/a%C3%B1o?q=caf%C3%A9');
  });

  it('answers an unknown code with a Spanish 404 page', async () => {
    for (const code of ['zzzzzz', 'no-existe', 'a'.repeat(80), 'caf%C3%A9']) {
      const response = await t.app.inject({ method: 'GET', url: `/${code}` });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('lang="es"');
      expect(response.body).toContain('Enlace no encontrado');
    }
  });

  it('answers HEAD with the redirect but does not count it as a click', async () => {
    const link = await insertLink(t.database.db);
    const head = await t.app.inject({ method: 'HEAD', url: `/${link.shortUrl}` });
    expect(head.statusCode).toBe(302);
    expect(head.headers.location).toBe(link.originalUrl);
    await flush();
    expect(await clickCount(t.database.db, link.id)).toBe(0);
    const rows = await t.database.db.selectFrom('clicks').select('id').where('url_id', '=', link.id).execute();
    expect(rows).toHaveLength(0);
  });

  it('stops redirecting a deleted link at once', async () => {
    const link = await insertLink(t.database.db);
    expect((await t.app.inject({ method: 'GET', url: `/${link.shortUrl}` })).statusCode).toBe(302);
    expect(t.app.appContext.linkCache.peek(link.shortUrl)).toBeDefined(); // now served from memory
    await t.database.db.deleteFrom('urls').where('id', '=', link.id).execute();
    await t.app.appContext.linkCache.forget({ shortCode: link.shortUrl, customUrl: link.customUrl });
    expect((await t.app.inject({ method: 'GET', url: `/${link.shortUrl}` })).statusCode).toBe(404);
    await flush(); // the click queued for the deleted link must not break the writer
  });

  it('leaves reserved paths to the web app', async () => {
    await insertLink(t.database.db, { shortUrl: 'health' });
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(404);
    expect(response.headers.location).toBeUndefined();
  });
});
