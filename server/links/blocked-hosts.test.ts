import { adminMessages } from '@common/admin/admin-messages';
import { linkMessages } from '@common/links/link-messages';
import type { ImportResult } from '@common/links/link-schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerAdmin } from '../admin/admin-test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { multipart, registerUser, sameOrigin } from '../test/test-users';
import { createLinkAs } from './links.test-support';
import { normalHost } from './normal-host';

// A blocked domain or address is blocked however its host is spelled (normal-host.ts), on
// creation, edit and import alike, and however the operator typed it.

// Every spelling of a host under a blocked domain or of a blocked address that a browser follows.
const BLOCKED_SPELLINGS = [
  'https://mal.example../', 'https://MAL.Example./x', 'https://cdn.mal.example../', 'https://xn--ml-mia.example/', 'https://MÁL.example../',
  'http://[::ffff:93.184.216.34]/', 'http://[::ffff:5db8:d822]/', 'http://[::FFFF:5DB8:D822]:8080/', 'http://1572395042/',
  'http://0x5d.0xb8.0xd8.0x22/', 'http://93.184.216.34./', 'http://[64:ff9b::5db8:d822]/',
];

describe('normalHost', () => {
  it('writes each spelling of a host in one form, and finds no host in an empty label', () => {
    expect(normalHost('MAL.example..')).toBe('mal.example');
    expect(normalHost('[::ffff:1.2.3.4]')).toBe('1.2.3.4');
    expect(normalHost('[::ffff:7f00:1]')).toBe('127.0.0.1');
    expect(normalHost('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(normalHost('0x7f.1')).toBe('127.0.0.1');
    expect(normalHost('bücher.example')).toBe('xn--bcher-kva.example');
    expect(normalHost('[2001:DB8:0::1]')).toBe('2001:db8::1');
    for (const none of ['a..b', '.a', '.', '', 'a b']) expect(normalHost(none), none).toBeUndefined();
  });
});

describe.each(testDialects)('blocked hosts in every spelling on %s', (dialect) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof registerAdmin>>;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { LINKS_PER_HOUR: '0' });
    admin = await registerAdmin(t);
    ({ cookie } = await registerUser(t.app));
  });
  afterAll(async () => t?.close());

  const block = (blockedDomains: string[]) => call(t.app, admin.cookie, 'PUT', '/api/admin/settings', { signup: 'open', blockedDomains });

  it("writes the operator's list as hosts are compared: final dots, case, punycode, IPv4-mapped", async () => {
    const put = await block(['Mal.Example..', 'https://[::ffff:93.184.216.34]:443/x', 'mál.example', '[::ffff:5db8:d823]']);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().blockedDomains).toEqual(['93.184.216.34', '93.184.216.35', 'mal.example', 'xn--ml-mia.example']);
    for (const bad of ['a..b.example', '[no:es:ipv6]', '.example']) expect((await block([bad])).statusCode, bad).toBe(400);
  });

  it('refuses every spelling on creation, on edit and on import, under the field', async () => {
    expect((await block(['mal.example', '93.184.216.34', 'mál.example'])).statusCode).toBe(200);
    const link = await createLinkAs(t.app, cookie, { longUrl: 'https://bien.example/' });
    for (const longUrl of BLOCKED_SPELLINGS) {
      const created = await call(t.app, cookie, 'POST', '/api/links', { title: 'x', longUrl });
      expect(created.statusCode, longUrl).toBe(400);
      expect(created.json().error.fields.longUrl, longUrl).toEqual([adminMessages.domainBlocked]);
      const edited = await call(t.app, cookie, 'PATCH', `/api/links/${link.id}`, { longUrl });
      expect(edited.statusCode, longUrl).toBe(400);
      expect(edited.json().error.fields.longUrl, longUrl).toEqual([adminMessages.domainBlocked]);
    }
    const csv = ['title,longUrl,customUrl,tags', ...BLOCKED_SPELLINGS.map((longUrl, i) => `Fila ${i},${longUrl},,`)].join('\n');
    const body = await multipart({ file: { bytes: Buffer.from(csv), filename: 'links.csv', type: 'text/csv' } });
    const imported = await t.app.inject({ method: 'POST', url: '/api/links/import', headers: { cookie, ...sameOrigin, ...body.headers }, payload: body.payload });
    expect(imported.json()).toEqual({
      created: 0,
      failed: BLOCKED_SPELLINGS.map((_, i) => ({ row: i + 2, error: adminMessages.domainBlocked })),
      overQuota: 0,
      retryAfterSeconds: null,
    } satisfies ImportResult);
  });

  it('refuses a host with an empty label, and takes a final dot', async () => {
    for (const longUrl of ['https://a..b.example/', 'https://.a.example/']) {
      const created = await call(t.app, cookie, 'POST', '/api/links', { title: 'x', longUrl });
      expect(created.json().error.fields.longUrl, longUrl).toEqual([linkMessages.longUrlInvalid]);
    }
    expect((await call(t.app, cookie, 'POST', '/api/links', { title: 'x', longUrl: 'https://bien.example./' })).statusCode).toBe(201);
  });

  it('stops a link made before the block, however its host was spelled', async () => {
    expect((await block([])).statusCode).toBe(200);
    const before = await createLinkAs(t.app, cookie, { longUrl: 'http://[::ffff:5db8:d824]/' });
    expect((await t.app.inject({ method: 'GET', url: `/${before.shortCode}` })).statusCode).toBe(302);
    expect((await block(['93.184.216.36'])).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/${before.shortCode}` })).statusCode).toBe(410);
  });
});
