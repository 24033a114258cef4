import { textMessages } from '@common/text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { makeImage, multipart, registerUser, sameOrigin } from '../test/test-users';

// The one check of control characters in front of every API route (control-characters.ts): the
// battery of reliability/bad-input.test.ts drives every route with them; here, what it lets through.

describe.each(testDialects)('control characters in what a client sends, on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { REPORTS_PER_HOUR: '0' });
    cookie = (await registerUser(t.app)).cookie;
    await createLinkAs(t.app, cookie, { title: 'Denunciado', customUrl: 'denunciado' });
  });
  afterAll(async () => t?.close());

  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: { cookie, ...sameOrigin, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

  it("lets line feeds and tabs into a report's reason, and nothing else", async () => {
    const accepted = await post('/api/reports', { address: 'denunciado', reason: 'Pide la clave del banco:\n\t1. entra\n\t2. paga' });
    expect(accepted.statusCode, accepted.body).toBe(202);
    const stored = await t.database.db.selectFrom('reports').select('reason').executeTakeFirstOrThrow();
    expect(stored.reason).toBe('Pide la clave del banco:\n\t1. entra\n\t2. paga');

    for (const reason of ['a\u0000b', 'a\r\nb', 'a\u001b[31mb']) {
      const refused = await post('/api/reports', { address: 'denunciado', reason });
      expect(refused.statusCode, reason).toBe(400);
      expect(refused.json().error.fields.reason).toEqual([textMessages.multilineControlCharacters]);
    }
    // Only the fields the route names span lines: the address does not.
    const address = await post('/api/reports', { address: 'denun\nciado', reason: 'phishing' });
    expect(address.json().error.fields.address).toEqual([textMessages.controlCharacters]);
  });

  it('refuses a line feed or a tab in a one-line text (a token name, a title)', async () => {
    for (const name of ['a\nb', 'a\tb']) {
      const refused = await post('/api/tokens', { name, scope: 'read' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields).toEqual({ name: [textMessages.controlCharacters] });
    }
    const title = await post('/api/links', { title: 'a\u0085b', longUrl: 'https://example.com/' });
    expect(title.statusCode).toBe(400);
  });

  it('reads texts however deep they sit in the body, keys included', async () => {
    const deep = `{"links":${'['.repeat(50_000)}"a\\u0000b"${']'.repeat(50_000)}}`;
    const nested = await t.app.inject({
      method: 'POST',
      url: '/api/links/bulk',
      headers: { cookie, ...sameOrigin, 'content-type': 'application/json' },
      payload: deep,
    });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().error.fields).toEqual({ links: [textMessages.controlCharacters] });
    const key = await post('/api/links', { title: 'a', longUrl: 'https://example.com/', 'x\u0000': 1 });
    expect(key.json().error.fields).toEqual({ 'x\u0000': [textMessages.controlCharacters] });
  });

  it("reads a sign-up's multipart fields, not its picture's bytes", async () => {
    const form = await multipart({
      name: 'Ana',
      email: `nul-${dialect}@corto.test`,
      password: 'secreto\u0000-123',
      profileImage: { bytes: await makeImage(), filename: 'a.png', type: 'image/png' },
    });
    const refused = await t.app.inject({ method: 'POST', url: '/api/auth/register', ...form });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual({ password: [textMessages.controlCharacters] });
    // A picture is bytes: its NULs are no text (registerUser's PNG has plenty).
    await expect(registerUser(t.app)).resolves.toBeDefined();
  });

  it('refuses a control character in a path parameter or a query string', async () => {
    const path = await t.app.inject({ method: 'DELETE', url: '/api/account/sessions/a%00b', headers: { cookie, ...sameOrigin } });
    expect(path.statusCode).toBe(400);
    expect(path.json().error.fields).toEqual({ id: [textMessages.controlCharacters] });
    const query = await t.app.inject({ method: 'GET', url: '/api/links?tag=a%1Bb', headers: { cookie } });
    expect(query.json().error.fields).toEqual({ tag: [textMessages.controlCharacters] });
  });
});
