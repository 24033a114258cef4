import path from 'node:path';
import { apiErrorSchema } from '@common/api-error';
import { accountMessages } from '@common/account/account-messages';
import { authMessages } from '@common/auth/auth-messages';
import { linkMessages } from '@common/links/link-messages';
import { errorMessages } from '@common/messages';
import { statsMessages } from '@common/stats/stats-messages';
import { textMessages } from '@common/text';
import { tokenMessages } from '@common/tokens/token-messages';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { registerAdmin } from '../admin/admin-test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { makeImage, multipart, sameOrigin } from '../test/test-users';
import { type BadCase, buildBattery, controlCharacterBattery, type OpenApiDocument } from './bad-input-cases';
import { snapshot } from './db-snapshot';
import { send } from './http-client';
import { registeredRoutes } from './registered-routes';

// The battery of bad-input-cases.ts against a real listening server: every case answers 4xx,
// /api answers carry the envelope with a Spanish message, and nothing stored changes.

const spanish = new Set<string>([
  ...Object.values(errorMessages),
  ...Object.values(authMessages),
  ...Object.values(linkMessages),
  ...Object.values(statsMessages),
  ...Object.values(tokenMessages),
  ...Object.values(accountMessages),
  ...Object.values(textMessages),
]);
// zod's own English defaults must never reach a user.
const english = /\b(invalid|expected|received|unrecognized|required|too (big|small)|must)\b/i;

describe.each(testDialects)('bad input against the real server on %s', (dialect) => {
  let t: TestApp;
  let port: number;
  let cookie: string;
  let cases: BadCase[];

  beforeAll(async () => {
    // The auth rate limits have a suite of their own; here they would turn cases into 429s.
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '0', AUTH_RATE_LIMIT_EMAIL: '0', REPORTS_PER_HOUR: '0' });
    // The battery's user is an admin too (as `corto admin` makes one), so the operator's routes get its bad inputs.
    const owner = await registerAdmin(t, { email: `bateria-${dialect}@corto.test` });
    cookie = owner.cookie;
    const taken = await createLinkAs(t.app, cookie, { title: 'Tomado', customUrl: 'Tomado' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    const battery = { takenAlias: 'Tomado', takenShortCode: taken.shortCode, linkId: taken.id, existingEmail: owner.user.email };
    const doc = JSON.parse((await send(port, { method: 'GET', path: '/api/openapi.json' })).body) as OpenApiDocument;
    cases = [...(await buildBattery(battery)), ...(await controlCharacterBattery(doc, registeredRoutes(t.app), battery))];
  });
  afterAll(async () => t?.close());

  it('refuses every case with a 4xx, the envelope and a Spanish message, and changes nothing stored', async () => {
    const storage = path.join(t.config.dataDir, 'storage');
    const problems: string[] = [];
    for (const bad of cases) {
      const before = await snapshot(t.database.db, storage);
      const headers = { ...bad.request.headers, ...(bad.as === 'user' ? { cookie, ...sameOrigin } : {}) };
      const response = await send(port, { ...bad.request, headers }).catch((error: Error) => ({ status: 0, headers: {}, body: error.message }));
      const after = await snapshot(t.database.db, storage);
      const said = `${response.status} ${response.body.slice(0, 200)}`;
      if (response.status < 400 || response.status >= 500) problems.push(`${bad.name}: answered ${said}`);
      if (after.digest !== before.digest) {
        problems.push(`${bad.name}: changed what is stored (${JSON.stringify(before.counts)} -> ${JSON.stringify(after.counts)})`);
      }
      if (/SQLite format|root:x:0/.test(response.body)) problems.push(`${bad.name}: leaked a file`);
      if (bad.kind !== 'api' || bad.request.method === 'HEAD') continue;
      const parsed = apiErrorSchema.safeParse((() => { try { return JSON.parse(response.body); } catch { return undefined; } })());
      if (!parsed.success) {
        problems.push(`${bad.name}: no error envelope: ${said}`);
        continue;
      }
      const { code, message, fields } = parsed.data.error;
      if (bad.code && code !== bad.code) problems.push(`${bad.name}: code ${code}, expected ${bad.code}: ${said}`);
      if (!spanish.has(message)) problems.push(`${bad.name}: message not one of ours: ${message}`);
      for (const [field, messages] of Object.entries(fields ?? {})) {
        for (const text of messages) if (!spanish.has(text) && (english.test(text) || !/[a-záéíóúñ]{3}/i.test(text))) problems.push(`${bad.name}: ${field}: English message "${text}"`);
      }
    }
    console.log(`bad input on ${dialect}: ${cases.length} cases, ${problems.length} problems`);
    expect(problems).toEqual([]);
    expect(cases.length).toBeGreaterThan(200);
    // Every operation of the document is in the sweep of control characters.
    expect(cases.filter((bad) => bad.name.includes('U+0000')).length).toBeGreaterThan(100);
  }, 120_000);

  it('accepts unicode where it belongs and stores it exactly', async () => {
    const title = 'Café ☕ 日本語 😀 עברית e\u0301';
    const created = await send(port, {
      method: 'POST',
      path: '/api/links',
      headers: { 'content-type': 'application/json', cookie, ...sameOrigin },
      body: JSON.stringify({ title, longUrl: 'https://bücher.example/ñandú?q=ü' }),
    });
    expect(created.status, created.body).toBe(201);
    const link = JSON.parse(created.body).link;
    expect(link.title).toBe(title);
    expect(link.originalUrl).toBe('https://xn--bcher-kva.example/%C3%B1and%C3%BA?q=%C3%BC');

    const name = 'José Ñúñez 😀';
    const body = await multipart({
      name,
      email: `unicode-${dialect}@corto.test`,
      password: 'contraseña ñ 😀',
      profileImage: { bytes: await makeImage('webp'), filename: 'cara.webp', type: 'image/webp' },
    });
    const registered = await send(port, { method: 'POST', path: '/api/auth/register', headers: body.headers, body: body.payload });
    expect(registered.status, registered.body).toBe(201);
    expect(JSON.parse(registered.body).user.name).toBe(name);
    const login = await send(port, {
      method: 'POST',
      path: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `UNICODE-${dialect}@corto.test`, password: 'contraseña ñ 😀' }),
    });
    expect(login.status, login.body).toBe(200);
  });
});
