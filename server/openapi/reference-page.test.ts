import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';

// The reference page at /api/docs/: Spanish, built from the same document as /api/openapi.json,
// with the numbers this instance applies. In a browser (axe, a 375 px phone): e2e/api-docs.spec.ts.

describe('the API reference page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { API_RATE_LIMIT: '1500' });
  });
  afterAll(async () => t?.close());

  it('is one Spanish HTML page with every operation of the document, its summary and its access', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<html lang="es">');
    expect(page.body).not.toContain('<script');
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, { summary?: string }>> };
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(page.body, `${method} ${path}`).toContain(`<code>${path}</code>`);
        expect(operation.summary, `${method} ${path} has a Spanish summary`).toBeTruthy();
      }
    }
    expect(page.body).toContain('Crear un link');
    expect(page.body).toContain('Token de API (<code>read</code> basta para leer');
    expect((await t.app.inject({ method: 'GET', url: '/api/docs' })).body).toBe(page.body);
    const css = await t.app.inject({ method: 'GET', url: '/api/docs/referencia.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  it('prints the instance’s token limit as a number, never the variable’s name', async () => {
    const doc = JSON.stringify((await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json());
    expect(doc).not.toContain('API_RATE_LIMIT');
    expect(doc).toContain('1500 peticiones por minuto');
    const page = (await t.app.inject({ method: 'GET', url: '/api/docs/' })).body;
    expect(page).not.toContain('API_RATE_LIMIT');
    expect(page).toContain('1500 peticiones por minuto');
  });
});
