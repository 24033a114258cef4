import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { createTokenAs } from './tokens.test-support';

// The ShareX custom uploader shipped in docs/examples: sent as ShareX sends it, it shortens a URL.

interface Sxcu {
  DestinationType: string;
  RequestMethod: string;
  RequestURL: string;
  Headers: Record<string, string>;
  Body: string;
  Data: string;
  URL: string;
  ErrorMessage: string;
}

/** ShareX's {json:a.b} syntax, read from an answer. */
const jsonPath = (template: string, body: unknown) =>
  template.replace(/\{json:([^}]+)\}/g, (_match, path: string) =>
    String(path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], body)),
  );

describe('the ShareX uploader file', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => t?.close());

  it('shortens the input URL with a token and points ShareX at the short link', async () => {
    const sxcu = JSON.parse(await readFile(new URL('../../docs/examples/corto.sxcu', import.meta.url), 'utf8')) as Sxcu;
    expect(sxcu.DestinationType).toBe('URLShortener');
    const { cookie } = await registerUser(t.app);
    const { secret } = await createTokenAs(t.app, cookie, { scope: 'write' });
    const input = 'https://example.com/captura-de-pantalla.png';
    const response = await t.app.inject({
      method: sxcu.RequestMethod as 'POST',
      url: new URL(sxcu.RequestURL).pathname,
      headers: {
        ...Object.fromEntries(Object.entries(sxcu.Headers).map(([name, value]) => [name, value.replace('PEGA_AQUI_TU_TOKEN', secret)])),
        'content-type': 'application/json',
      },
      payload: sxcu.Data.replaceAll('{input}', input),
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.link.originalUrl).toBe(input);
    expect(jsonPath(sxcu.URL, body)).toBe(body.link.shortLink);

    const refused = await t.app.inject({ method: 'POST', url: '/api/links', headers: { authorization: 'Bearer corto_mal' }, payload: {} });
    expect(jsonPath(sxcu.ErrorMessage, refused.json())).toMatch(/token de API no es válido/);
  });
});
