import type { ErrorCode } from '@common/api-error';
import { type FilePart, makeImage, multipart } from '../test/test-users';
import { badImages } from './bad-images';
import { type JsonSchema, validValue } from '../openapi/contract-cases';
import type { RawRequest } from './http-client';
import type { RegisteredRoute } from './registered-routes';

// The battery: requests a careless or hostile client may send. Each must be refused with a 4xx
// (the error envelope and a Spanish message under /api), and must change nothing stored.

export interface BadCase {
  name: string;
  request: RawRequest;
  /** Sent with the signed-in user's cookie (the /api/links routes), or without any. */
  as: 'user' | 'anonymous';
  /** 'api': the JSON error envelope; 'page': any 4xx page, which must not leak a file. */
  kind: 'api' | 'page';
  /** The envelope's code, where only one is right. */
  code?: ErrorCode;
}

export interface BatteryContext {
  /** An alias that exists already ('Tomado') and the short code of that link. */
  takenAlias: string;
  takenShortCode: string;
  /** Id of the signed-in user's link. */
  linkId: number;
  /** An account that exists, for duplicate sign-ups. */
  existingEmail: string;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const goodLink = { title: 'Un link', longUrl: 'https://example.com/a' };
const goodLogin = { email: 'alguien@corto.test', password: 'secreto-123' };

const api = (name: string, request: RawRequest, as: BadCase['as'], code?: ErrorCode): BadCase => ({ name, request, as, kind: 'api', code });
const json = (path: string, value: unknown, as: BadCase['as'], code?: ErrorCode) =>
  api(`${path} ${JSON.stringify(value).slice(0, 80)}`, { method: 'POST', path, headers: JSON_TYPE, body: JSON.stringify(value) }, as, code);
const link = (value: Record<string, unknown>, code?: ErrorCode) => json('/api/links', value, 'user', code ?? 'validation');
const login = (value: Record<string, unknown>, code?: ErrorCode) => json('/api/auth/login', value, 'anonymous', code ?? 'validation');
const page = (name: string, method: string, path: string): BadCase => ({ name, request: { method, path }, as: 'anonymous', kind: 'page' });

async function register(name: string, fields: Record<string, string | FilePart>, code?: ErrorCode): Promise<BadCase> {
  const body = await multipart(fields);
  return api(`register: ${name}`, { method: 'POST', path: '/api/auth/register', headers: body.headers, body: body.payload }, 'anonymous', code);
}

export async function buildBattery(ctx: BatteryContext): Promise<BadCase[]> {
  const images = await badImages();
  const goodPng: FilePart = { bytes: await makeImage(), filename: 'foto.png', type: 'image/png' };
  const person = { name: 'Ana Prueba', email: 'ana-bateria@corto.test', password: 'secreto-123' };
  const file = (bytes: Buffer, filename = 'foto.png', type = 'image/png'): FilePart => ({ bytes, filename, type });
  const cases: BadCase[] = [];

  // Malformed JSON, and JSON that is not an object.
  const malformed = ['{', '{"title":', '{"title": "a",}', "{'title':'a'}", 'nul', '[', '}', '{"a":1}}', '\u0000', 'undefined', '{"title":"a" "longUrl":"b"}', ''];
  const notObjects = ['null', '[]', '"texto"', '42', 'true', '[{"title":"a"}]'];
  for (const path of ['/api/links', '/api/auth/login']) {
    const as = path === '/api/links' ? 'user' : 'anonymous';
    for (const body of malformed) cases.push(api(`${path} malformed ${JSON.stringify(body)}`, { method: 'POST', path, headers: JSON_TYPE, body }, as, 'invalid_json'));
    for (const body of notObjects) cases.push(api(`${path} not an object ${body}`, { method: 'POST', path, headers: JSON_TYPE, body }, as, 'validation'));
  }

  // Wrong content types.
  const form = await multipart({ title: 'a', longUrl: 'https://example.com' });
  const otherTypes: Array<[string, string | Buffer]> = [
    ['text/plain', JSON.stringify(goodLink)],
    ['application/x-www-form-urlencoded', 'title=a&longUrl=https%3A%2F%2Fexample.com'],
    ['application/xml', '<link><title>a</title></link>'],
    ['image/png', await makeImage()],
    ['application/jsonp', JSON.stringify(goodLink)],
    [form.headers['content-type'], form.payload],
  ];
  for (const path of ['/api/links', '/api/auth/login']) {
    const as = path === '/api/links' ? 'user' : 'anonymous';
    for (const [type, body] of otherTypes) {
      // Only sign-up reads multipart (for the picture): a form posted to login is not even read.
      cases.push(api(`${path} as ${type.split(';')[0]}`, { method: 'POST', path, headers: { 'content-type': type }, body }, as, 'unsupported_media_type'));
    }
    cases.push(api(`${path} without a content type`, { method: 'POST', path, body: JSON.stringify(goodLink) }, as, 'unsupported_media_type'));
  }
  cases.push(
    api('register as JSON', { method: 'POST', path: '/api/auth/register', headers: JSON_TYPE, body: JSON.stringify(person) }, 'anonymous'),
    api('register as text', { method: 'POST', path: '/api/auth/register', headers: { 'content-type': 'text/plain' }, body: 'hola' }, 'anonymous', 'unsupported_media_type'),
    api('register as a form', { method: 'POST', path: '/api/auth/register', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=a&email=b%40c.d&password=secreto' }, 'anonymous'),
    api('register multipart without a boundary', { method: 'POST', path: '/api/auth/register', headers: { 'content-type': 'multipart/form-data' }, body: 'x' }, 'anonymous'),
    api('register multipart with the wrong boundary', { method: 'POST', path: '/api/auth/register', headers: { 'content-type': 'multipart/form-data; boundary=otro' }, body: (await multipart({ ...person, profileImage: goodPng })).payload }, 'anonymous'),
    api('register multipart cut short', { method: 'POST', path: '/api/auth/register', ...(await (async () => { const b = await multipart({ ...person, profileImage: goodPng }); return { headers: b.headers, body: b.payload.subarray(0, b.payload.length - 300) }; })()) }, 'anonymous'),
  );

  // Bodies over the limits (1 MB for JSON, 5 MB for the picture, 64 kB for a form field).
  const big = 'x'.repeat(1024 * 1024 + 10);
  cases.push(
    api('links body over 1 MB', { method: 'POST', path: '/api/links', headers: JSON_TYPE, body: JSON.stringify({ ...goodLink, title: big }) }, 'user', 'payload_too_large'),
    api('login body over 1 MB', { method: 'POST', path: '/api/auth/login', headers: JSON_TYPE, body: JSON.stringify({ ...goodLogin, password: big }) }, 'anonymous', 'payload_too_large'),
    await register('picture over 5 MB', { ...person, profileImage: file(images.oversized) }, 'payload_too_large'),
    await register('name field over 64 kB', { ...person, name: 'n'.repeat(70 * 1024), profileImage: goodPng }),
    await register('two pictures', { ...person, profileImage: goodPng, otra: file(await makeImage()) }),
    await register('a dozen extra fields', { ...person, profileImage: goodPng, ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`extra${i}`, 'x'])) }),
  );

  // Missing fields and wrong types.
  for (const value of [
    {}, { title: 'a' }, { longUrl: 'https://example.com' }, { title: '', longUrl: '' }, { title: '   ', longUrl: 'https://example.com' },
    { title: 'a', longUrl: '   ' }, { title: null, longUrl: 'https://example.com' }, { title: 5, longUrl: 'https://example.com' },
    { title: ['a'], longUrl: 'https://example.com' }, { title: { a: 1 }, longUrl: 'https://example.com' }, { title: 'a', longUrl: 5 },
    { title: 'a', longUrl: true }, { title: 'a', longUrl: ['https://example.com'] }, { ...goodLink, customUrl: 5 }, { ...goodLink, customUrl: ['abc'] },
    { ...goodLink, customUrl: { $ne: null } }, { ...goodLink, tags: 'uno' }, { ...goodLink, tags: [5] }, { ...goodLink, tags: [''] },
    { ...goodLink, tags: ['a|b'] }, { ...goodLink, tags: ['t'.repeat(41)] }, { ...goodLink, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
    { ...goodLink, tags: { $ne: null } },
  ]) cases.push(link(value));
  for (const value of [
    {}, { email: 'a@corto.test' }, { password: 'secreto-123' }, { email: '', password: '' }, { email: 5, password: 5 },
    { email: 'no-es-un-email', password: 'secreto-123' }, { email: 'a@corto.test', password: 'corta' }, { email: ['a@corto.test'], password: 'secreto-123' },
    { email: { $gt: '' }, password: 'secreto-123' }, { email: 'a@corto.test', password: null },
  ]) cases.push(login(value));
  cases.push(login({ email: 'nadie-existe@corto.test', password: 'secreto-123' }, 'unauthorized'));
  cases.push(login({ email: ctx.existingEmail, password: 'adivinanza-1' }, 'unauthorized'));
  for (const [name, fields] of Object.entries<Record<string, string | FilePart>>({
    'no name': { email: person.email, password: person.password, profileImage: goodPng },
    'no email': { name: person.name, password: person.password, profileImage: goodPng },
    'no password': { name: person.name, email: person.email, profileImage: goodPng },
    'no picture': { ...person },
    'blank name': { ...person, name: '   ', profileImage: goodPng },
    'bad email': { ...person, email: 'ana@', profileImage: goodPng },
    'short password': { ...person, password: '12345', profileImage: goodPng },
  })) cases.push(await register(name, fields, 'validation'));
  cases.push(await register('an e-mail already taken, in other case', { ...person, email: ctx.existingEmail.toUpperCase(), profileImage: goodPng }, 'conflict'));

  // Extra fields: nobody sets their link's owner, id, code or count, nor their own role.
  for (const extra of [{ userId: 1 }, { user_id: 1 }, { id: 1 }, { shortCode: 'abc123' }, { clicks: 1_000_000 }, { qr: '../../corto.db' }]) {
    cases.push(link({ ...goodLink, ...extra }));
  }
  cases.push(login({ ...goodLogin, role: 'admin' }));
  cases.push(await register('extra field role', { ...person, role: 'admin', profileImage: goodPng }, 'validation'));

  // Very long strings.
  cases.push(
    link({ ...goodLink, title: 't'.repeat(201) }),
    link({ ...goodLink, title: 't'.repeat(100_000) }),
    link({ ...goodLink, longUrl: `https://example.com/${'a'.repeat(2030)}` }),
    link({ ...goodLink, longUrl: `https://example.com/${'a'.repeat(500_000)}` }),
    link({ ...goodLink, customUrl: 'a'.repeat(51) }),
    link({ ...goodLink, customUrl: 'a'.repeat(10_000) }),
    login({ email: `${'a'.repeat(250)}@corto.test`, password: 'secreto-123' }),
    login({ ...goodLogin, password: 'p'.repeat(257) }),
    await register('name of 101 characters', { ...person, name: 'n'.repeat(101), profileImage: goodPng }, 'validation'),
    await register('e-mail of 255 characters', { ...person, email: `${'e'.repeat(245)}@corto.test`, profileImage: goodPng }, 'validation'),
    await register('password of 257 characters', { ...person, password: 'p'.repeat(257), profileImage: goodPng }, 'validation'),
    api('list filter of 201 characters', { method: 'GET', path: `/api/links?q=${'q'.repeat(201)}` }, 'user', 'validation'),
    api('list filter with a NUL', { method: 'GET', path: '/api/links?q=a%00bc' }, 'user', 'validation'),
  );

  // Control characters, in every field.
  for (const control of ['\u0000', '\u0007', '\u001b[31m', '\u007f', '\u0085', '\r\n']) {
    const shown = JSON.stringify(control);
    cases.push(
      { ...link({ ...goodLink, title: `Título${control}malo` }), name: `title with ${shown}` },
      { ...link({ ...goodLink, customUrl: `alias${control}malo` }), name: `alias with ${shown}` },
      { ...link({ ...goodLink, longUrl: `https://exa${control}mple.com/` }), name: `URL host with ${shown}` },
      { ...login({ email: `ana${control}@corto.test`, password: 'secreto-123' }), name: `login e-mail with ${shown}` },
      await register(`name with ${shown}`, { ...person, name: `Ana${control}Prueba`, profileImage: goodPng }, 'validation'),
      await register(`e-mail with ${shown}`, { ...person, email: `ana${control}@corto.test`, profileImage: goodPng }, 'validation'),
    );
  }
  // Bidirectional controls, which show text reordered ('factura\u202Egnp.exe' reads 'facturaexe.png').
  for (const mark of ['\u202e', '\u202d', '\u2066', '\u2067', '\u2069', '\u200f']) {
    const shown = JSON.stringify(mark);
    cases.push(
      { ...link({ ...goodLink, title: `factura${mark}gnp.exe` }), name: `title with ${shown}` },
      { ...link({ ...goodLink, customUrl: `alias${mark}malo` }), name: `alias with ${shown}` },
      await register(`name with ${shown}`, { ...person, name: `Ana${mark}nimda`, profileImage: goodPng }, 'validation'),
    );
  }
  // Aliases take letters of any script ('ñandú', '日本語'), but not emoji, invisible characters, or
  // compatibility look-alikes of other letters (fullwidth 'ａｂｃ', the ligature 'ﬁ').
  for (const alias of ['😀😀😀', 'a\u200bb', 'ａｂｃ', 'ﬁesta', 'x²y', 'ñandú\u202e']) cases.push(link({ ...goodLink, customUrl: alias }));
  cases.push(login({ email: 'ana@corto\u2024test', password: 'secreto-123' }));

  // Addresses that are not http(s), or not absolute.
  for (const longUrl of [
    'javascript:alert(1)', 'JavaScript:alert(1)', '  javascript:alert(1)', 'java\tscript:alert(1)', 'javascript://example.com/%0Aalert(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', 'data:,hola', 'DATA:text/plain,hola', 'file:///etc/passwd',
    'file://localhost/etc/passwd', 'ftp://example.com/f', 'mailto:a@corto.test', 'vbscript:msgbox(1)', 'blob:https://example.com/1',
    'about:blank', 'chrome://settings', 'ws://example.com', '/relativo', './relativo', '../relativo', '//evil.example/x', 'example.com',
    'www.example.com/camino', 'http://', 'https://', 'https://exa mple.com', 'http://[::1', 'https://a.example/\u0000x', 'https://a.example/\tx', '?q=1', '#fragmento',
  ]) cases.push(link({ ...goodLink, longUrl }));

  // Destinations inside the visitor's machine or network, or on this very instance (the battery's
  // server runs with the default PUBLIC_BASE_URL, http://localhost:PORT).
  for (const longUrl of [
    'http://127.0.0.1/', 'http://0x7f.1/', 'http://2130706433/', 'http://localhost:3000/', 'http://app.localhost/', 'http://10.1.2.3/',
    'http://172.16.0.1/', 'http://192.168.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://[fe80::1]/',
    'http://[fd00::1]/', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:c0a8:1]/', 'http://0.0.0.0/', 'http://impresora.local/',
  ]) cases.push(link({ ...goodLink, longUrl }));
  cases.push({ ...link({ ...goodLink, longUrl: `http://localhost/${ctx.takenShortCode}` }), name: 'a short address of this instance as destination' });

  // Aliases: path tricks, reserved words in any case, too short, taken in any case.
  for (const alias of [
    'a/b', '../x', '..', '.', 'a b', ' a b ', 'a.b', 'ab', 'api', 'API', 'Api', 'dashboard', 'DASHBOARD', 'auth', 'Auth', 'assets', 'storage',
    'index.html', 'favicon.ico', 'link', 'Links', 'health', 'a%2Fb', 'a?b', 'a#b', 'a\\b', '<script>', "a'b", 'a"b',
  ]) cases.push(link({ ...goodLink, customUrl: alias }));
  for (const alias of [ctx.takenAlias, ctx.takenAlias.toUpperCase(), ctx.takenAlias.toLowerCase(), ctx.takenShortCode, ctx.takenShortCode.toUpperCase()]) {
    cases.push({ ...link({ ...goodLink, customUrl: alias }, 'conflict'), name: `alias ${alias} already in use` });
  }

  // Pictures that are not what they claim.
  for (const [name, part] of Object.entries({
    'text named .png': file(images.textAsPng),
    'HTML named .png': file(images.htmlAsPng),
    'SVG as image/svg+xml': file(images.svg, 'foto.svg', 'image/svg+xml'),
    'SVG named .png': file(images.svg),
    'truncated PNG': file(images.truncatedPng),
    'truncated JPEG': file(images.truncatedJpeg, 'foto.jpg', 'image/jpeg'),
    'PNG header only': file(images.headerOnlyPng),
    'PNG declaring 100000×100000': file(images.hugePng),
    'PNG declaring 6001 wide': file(images.widePng),
    'PNG declaring 2^31-1 on each side': file(images.maxIntPng),
    'PNG declaring 0×0': file(images.zeroPng),
    'empty file': file(images.empty),
  })) cases.push(await register(name, { ...person, profileImage: part }));
  cases.push(await register('picture sent as text', { ...person, profileImage: 'foto.png' }));
  cases.push(await register('a file where the name goes', { ...person, name: goodPng, profileImage: goodPng } as Record<string, string | FilePart>));

  // Ids, queries, methods and addresses under /api.
  for (const [method, path, code] of [
    ['GET', '/api/links/abc', 'not_found'], ['GET', '/api/links/0', 'not_found'], ['GET', '/api/links/-1', 'not_found'],
    ['GET', '/api/links/1e3', 'not_found'], ['GET', '/api/links/99999999999999999999', 'not_found'], ['GET', '/api/links/%00', 'validation'],
    ['GET', '/api/links/%ZZ', undefined], ['GET', '/api/links/..%2F..%2Fauth%2Fsession', 'not_found'], ['DELETE', '/api/links/abc', 'not_found'],
    ['DELETE', '/api/links/%E2%80%AE', 'not_found'], ['GET', '/api/links/abc/stats', 'not_found'], ['GET', `/api/links/${ctx.linkId}/stats?range=1y`, 'validation'],
    ['GET', '/api/links?limit=0', 'validation'], ['GET', '/api/links?limit=abc', 'validation'], ['GET', '/api/links?limit=1e9', 'validation'],
    ['GET', '/api/links?limit=-5', 'validation'], ['GET', '/api/links?cursor=basura', 'validation'], ['GET', '/api/links?cursor=1.2.3', 'validation'],
    ['GET', '/api/links?sort=fecha', 'validation'], ['GET', '/api/links?order=arriba', 'validation'], ['GET', '/api/links?sort=clicks&cursor=abc.1', 'validation'],
    ['GET', `/api/links?tag=${'t'.repeat(41)}`, 'validation'], ['GET', '/api/links?tag=a%7Cb', 'validation'],
    ['PUT', '/api/links', 'not_found'], ['PATCH', `/api/links/${ctx.linkId}`, 'validation'], ['POST', '/api/auth/session', 'not_found'],
    ['GET', '/api/nada', 'not_found'], ['GET', '/api/auth/login', 'not_found'], ['GET', '/api/../api/links/abc', 'not_found'],
    ['GET', '/api/links/abc/qr', 'not_found'], ['GET', `/api/links/${ctx.linkId}/qr?size=99999`, 'validation'],
    ['GET', `/api/links/${ctx.linkId}/qr?format=pdf`, 'validation'], ['GET', `/api/links/${ctx.linkId}/qr?color=%3Cscript%3E`, 'validation'],
    ['GET', `/api/links/${ctx.linkId}/qr?margin=1e9`, 'validation'], ['GET', `/api/links/${ctx.linkId}/qr?ecc=%00`, 'validation'],
    ['GET', `/api/links/${ctx.linkId}/qr?color=ffffff`, 'validation'],
  ] as Array<[string, string, ErrorCode | undefined]>) {
    cases.push(api(`${method} ${path}`, { method, path }, 'user', code));
  }
  cases.push(
    api('a session cookie that is not one', { method: 'GET', path: '/api/links', headers: { cookie: 'corto_session=%E0%A4%A' } }, 'anonymous', 'unauthorized'),
    api('a 6 kB session cookie', { method: 'GET', path: '/api/links', headers: { cookie: `corto_session=${'a'.repeat(6000)}` } }, 'anonymous', 'unauthorized'),
    api('a link created from another site', { method: 'POST', path: '/api/links', headers: { ...JSON_TYPE, origin: 'https://evil.example' }, body: JSON.stringify(goodLink) }, 'user', 'forbidden'),
  );

  // Writes a page on another site can make a browser send, whatever the spelling of the path, and
  // form bodies to logout (a plain HTML form can post one without a preflight).
  const loginForm = await multipart(goodLogin);
  const urlencoded = { 'content-type': 'application/x-www-form-urlencoded' };
  cases.push(
    api('login from another site, encoded path', { method: 'POST', path: '/%61pi/auth/login', headers: { ...JSON_TYPE, origin: 'https://evil.example' }, body: JSON.stringify(goodLogin) }, 'anonymous', 'forbidden'),
    api('login marked cross-site', { method: 'POST', path: '/api/auth/login', headers: { ...JSON_TYPE, 'sec-fetch-site': 'cross-site' }, body: JSON.stringify(goodLogin) }, 'anonymous', 'forbidden'),
    api('a link created from another site, encoded path', { method: 'POST', path: '/%61pi/links', headers: { ...JSON_TYPE, origin: 'https://evil.example' }, body: JSON.stringify(goodLink) }, 'user', 'forbidden'),
    api('logout as a urlencoded form', { method: 'POST', path: '/api/auth/logout', headers: urlencoded, body: 'a=b' }, 'user', 'unsupported_media_type'),
    api('logout as multipart', { method: 'POST', path: '/api/auth/logout', headers: loginForm.headers, body: loginForm.payload }, 'user', 'unsupported_media_type'),
  );
  // A sign-up whose body ends inside the picture.
  const whole = await multipart({ ...person, email: 'cortada-bateria@corto.test', profileImage: goodPng });
  const pictureAt = whole.payload.indexOf('image/png\r\n\r\n') + 'image/png\r\n\r\n'.length;
  cases.push(
    api('register: the body ends inside the picture', { method: 'POST', path: '/api/auth/register', headers: whole.headers, body: whole.payload.subarray(0, pictureAt + 50) }, 'anonymous', 'validation'),
  );

  // API tokens: bad bodies (with the session), and bad bearer credentials (anonymous, no cookie).
  const goodToken = { name: 'Script', scope: 'read' };
  for (const value of [
    {},
    { ...goodToken, name: '' },
    { ...goodToken, name: 'x'.repeat(101) },
    { ...goodToken, scope: 'admin' },
    { ...goodToken, scope: ['read'] },
    { ...goodToken, expiresAt: 'mañana' },
    { ...goodToken, expiresAt: '2001-01-01T00:00:00Z' },
    { ...goodToken, userId: 1 },
  ]) cases.push(json('/api/tokens', value, 'user', 'validation'));
  for (const authorization of ['Bearer', 'Bearer ', 'Bearer corto_', `Bearer corto_${'A'.repeat(43)}`, `Bearer ${'x'.repeat(5000)}`]) {
    cases.push(api(`links with ${JSON.stringify(authorization.slice(0, 30))}`, { method: 'GET', path: '/api/links', headers: { authorization } }, 'anonymous', 'unauthorized'));
  }

  // Pages and files outside /api: never the database file, never a 5xx.
  for (const [method, path] of [
    ['GET', '/%ZZ'], ['HEAD', '/%ZZ'], ['GET', '/..%2F..%2Fetc%2Fpasswd'], ['GET', '/storage/..%2Fcorto.db'], ['GET', '/storage/../corto.db'],
    ['GET', '/storage/profile-pictures/..%2F..%2Fcorto.db'], ['GET', '/storage/qrs/%2e%2e/%2e%2e/corto.db'], ['GET', '/storage/qrs/..%5C..%5Ccorto.db'],
    ['GET', '/a%00b'], ['GET', `/${'a'.repeat(5000)}`], ['GET', '/%3Cscript%3E'], ['GET', '/nadie-tiene-esto'], ['POST', '/abc123'], ['DELETE', '/abc123'],
  ] as Array<[string, string]>) cases.push(page(`${method} ${path.slice(0, 60)}`, method, path));

  // The account page, password recovery and the second step of a sign-in.
  const send = (method: string, path: string, value: unknown, as: BadCase['as'], code?: ErrorCode) =>
    api(`${method} ${path} ${JSON.stringify(value).slice(0, 60)}`, { method, path, headers: JSON_TYPE, body: JSON.stringify(value) }, as, code);
  for (const value of [{}, { name: '' }, { name: 'x'.repeat(101) }, { name: 'a\u0000b' }, { name: 'Ana', role: 'admin' }]) {
    cases.push(send('PATCH', '/api/account', value, 'user', 'validation'));
  }
  for (const value of [{}, { email: 'sin-arroba', password: 'x' }, { email: 'a@b.co', password: '' }, { email: 'a@b.co', password: 'mal' }]) {
    cases.push(send('POST', '/api/account/email', value, 'user', 'validation'));
  }
  for (const value of [{}, { currentPassword: 'mal', newPassword: 'nueva-clave-987' }, { currentPassword: 'secreto-123', newPassword: '123' }]) {
    cases.push(send('POST', '/api/account/password', value, 'user', 'validation'));
  }
  for (const value of [{}, { password: 'mal' }, { password: 42 }]) cases.push(send('DELETE', '/api/account', value, 'user', 'validation'));
  for (const value of [{}, { code: 'abc' }, { code: 123456 }, { code: '1'.repeat(40) }]) {
    cases.push(send('POST', '/api/account/totp/confirm', value, 'user', 'validation'));
    cases.push(send('POST', '/api/auth/totp', value, 'anonymous', 'validation'));
  }
  cases.push(api('DELETE an unknown session', { method: 'DELETE', path: '/api/account/sessions/no-existe' }, 'user', 'not_found'));
  for (const value of [{}, { email: '' }, { email: 'sin-arroba' }, { email: ['a@b.co'] }]) {
    cases.push(send('POST', '/api/auth/password-reset', value, 'anonymous', 'validation'));
  }
  for (const value of [{}, { token: '', password: 'nueva-clave-987' }, { token: 'inventado', password: 'nueva-clave-987' }, { token: 'x'.repeat(500), password: 'nueva-clave-987' }, { token: 'inventado', password: '1' }]) {
    cases.push(send('POST', '/api/auth/password-reset/confirm', value, 'anonymous', 'validation'));
  }
  // Abuse reports: public, no account needed.
  for (const value of [
    {},
    { address: '', reason: 'phishing' },
    { address: 'x'.repeat(3000), reason: 'phishing' },
    { address: 'abc', reason: '' },
    { address: 'abc', reason: 'x'.repeat(5000) },
    { address: 'abc', reason: 'phishing', email: 'sin-arroba' },
    { address: ['abc'], reason: 'phishing' },
    { address: 'abc', reason: 'phishing', extra: true },
  ]) {
    cases.push(send('POST', '/api/reports', value, 'anonymous', 'validation'));
  }
  // The operator's routes (the battery's user is an admin).
  for (const value of [{ disabled: 'sí' }, { role: 'root' }, { disabled: true, extra: 1 }, []]) {
    cases.push(send('PATCH', '/api/admin/users/999999', value, 'user', 'validation'));
  }
  for (const value of [{}, { disabled: 'no' }, { disabled: true, reason: 'x'.repeat(600) }, { disabled: true, owner: 1 }]) {
    cases.push(send('PATCH', `/api/admin/links/${ctx.linkId}`, value, 'user', 'validation'));
  }
  for (const value of [{}, { signup: 'quizá', blockedDomains: [] }, { signup: 'open', blockedDomains: 'ejemplo.com' }, { signup: 'open', blockedDomains: ['no es un dominio!'] }]) {
    cases.push(send('PUT', '/api/admin/settings', value, 'user', 'validation'));
  }
  for (const value of [{ email: 'sin-arroba' }, { email: 42 }, { email: 'a@b.co', uses: 3 }]) {
    cases.push(send('POST', '/api/admin/invites', value, 'user', 'validation'));
  }
  for (const query of ['cursor=abc', 'cursor=-1', `q=${'x'.repeat(300)}`, 'q=a%00bc']) {
    cases.push(api(`GET /api/admin/users?${query.slice(0, 40)}`, { method: 'GET', path: `/api/admin/users?${query}` }, 'user', 'validation'));
    cases.push(api(`GET /api/admin/links?${query.slice(0, 40)}`, { method: 'GET', path: `/api/admin/links?${query}` }, 'user', 'validation'));
  }

  return cases;
}

/** What the battery reads of an OpenAPI document. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, {
    parameters?: Array<{ in: string; name: string; schema: JsonSchema }>;
    requestBody?: { content: Record<string, { schema?: JsonSchema }> };
  }>>;
}

// Control characters, NUL first (PostgreSQL refuses it in text: a 500 if one gets that far). Line
// feeds and tabs are left out of the sweep: a report's reason may hold them.
const CONTROLS = ['\u0000', '\u0001', '\u0008', '\u001b', '\u007f', '\u0085', '\u009b'];
const withControl = (control: string) => `a${control}b`;

/**
 * Control characters in every text of every route: each path parameter, query parameter and body
 * field of each operation of the OpenAPI document (sign-up's multipart fields included), and each
 * parameter of the routes Fastify has that the document does not list. The rest of each request is
 * valid where it can be, so that only the control character stands between it and the database.
 */
export async function controlCharacterBattery(doc: OpenApiDocument, routes: readonly RegisteredRoute[], ctx: BatteryContext): Promise<BadCase[]> {
  const cases: BadCase[] = [];
  const good: Record<string, unknown> = {
    title: 'Un link', longUrl: 'https://example.com/a', address: ctx.takenAlias, reason: 'Suplanta a mi banco', password: 'secreto-123',
    currentPassword: 'secreto-123', newPassword: 'nueva-clave-987', token: 'inventado', code: '123456', name: 'Ana Prueba',
  };
  const goodPath = (path: string) => path.replace('{id}', String(ctx.linkId)).replace(/\{[^}]+\}/g, 'ejemplo');
  let turn = 0;
  // NUL for every text, and one of the other controls in turn.
  const controlsFor = () => ['\u0000', CONTROLS[1 + (turn++ % (CONTROLS.length - 1))]!];
  const picture: FilePart = { bytes: await makeImage(), filename: 'foto.png', type: 'image/png' };

  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [lower, operation] of Object.entries(operations)) {
      const method = lower.toUpperCase();
      const name = (what: string, control: string) => `${method} ${path}: ${what} with U+${control.codePointAt(0)!.toString(16).padStart(4, '0')}`;
      for (const parameter of operation.parameters ?? []) {
        for (const control of controlsFor()) {
          const text = encodeURIComponent(withControl(control));
          if (parameter.in === 'path') {
            const at = goodPath(path.replace(`{${parameter.name}}`, text));
            cases.push(api(name(`path ${parameter.name}`, control), { method, path: at }, 'user', 'validation'));
          } else if (parameter.in === 'query') {
            const at = `${goodPath(path)}?${parameter.name}=${text}`;
            cases.push(api(name(`query ${parameter.name}`, control), { method, path: at }, 'user', 'validation'));
          }
        }
      }
      const content = operation.requestBody?.content ?? {};
      const [type, media] = Object.entries(content)[0] ?? [];
      const schema = media?.schema;
      if (!type || !schema?.properties) continue;
      const valid: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties)) {
        if (key in good) valid[key] = good[key];
        else if (schema.required?.includes(key)) valid[key] = validValue(property, key);
      }
      const texts = Object.entries(schema.properties).filter(([, property]) => {
        const types = [property.type, ...(property.anyOf ?? []).map((one) => one.type)].flat();
        return types.includes('string') || property.items?.type === 'string' || (property.type === 'array' && !property.items?.type);
      });
      for (const [key, property] of texts) {
        for (const control of controlsFor()) {
          const text = withControl(control);
          // A list of texts gets the control in one item; a list of anything (bulk's bodies) in an item's title.
          const value = property.type === 'array' ? [property.items?.type === 'string' ? text : { ...goodLink, title: text }] : text;
          if (type === 'application/json') {
            const body = JSON.stringify({ ...valid, [key]: value });
            cases.push(api(name(`body ${key}`, control), { method, path: goodPath(path), headers: JSON_TYPE, body }, 'user', 'validation'));
          } else if (type === 'multipart/form-data' && property.type === 'string') {
            const form = await multipart({ ...valid, email: `control-${cases.length}@corto.test`, [key]: text, profileImage: picture } as Record<string, string | FilePart>);
            cases.push(api(name(`form field ${key}`, control), { method, path: goodPath(path), headers: form.headers, body: form.payload }, 'anonymous', 'validation'));
          }
        }
      }
      if (type === 'application/json') {
        const body = JSON.stringify({ ...valid, [withControl('\u0000')]: 'x' });
        cases.push(api(`${method} ${path}: a body key with U+0000`, { method, path: goodPath(path), headers: JSON_TYPE, body }, 'user', 'validation'));
      }
    }
  }

  // The routes the document leaves out (pages, the redirect, the documentation's files): a control
  // character in each of their parameters.
  const documented = new Set(Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`)));
  for (const route of routes) {
    if (documented.has(`${route.method} ${route.url}`) || !/[:*]/.test(route.url) || route.method === 'OPTIONS') continue;
    for (const control of CONTROLS) {
      const path = route.url.replace(/:[^/]+|\*/g, encodeURIComponent(withControl(control))).replace(/^(?!\/)/, '/');
      cases.push({ name: `${route.method} ${route.url} with U+${control.codePointAt(0)!.toString(16).padStart(4, '0')}`, request: { method: route.method, path }, as: 'user', kind: 'page' });
    }
  }
  return cases;
}
