import { readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { authMessages } from '@common/auth/auth-messages';
import { errorMessages } from '@common/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { makeImage, multipart, registerUser, sameOrigin } from '../test/test-users';
import { connect, parseAnswer, type RawConnection, send } from './http-client';
import { until } from './server-process';

// What an attack on a built server found, over real sockets: writes sent from other sites
// (whatever the spelling of the path), form bodies where only JSON belongs, bodies and headers
// trickled to hold connections open, and uploads cut off half-way.

const PUBLIC = 'https://corto.example';
const EVIL = 'https://evil.example';
const forbidden = { error: { code: 'forbidden', message: authMessages.crossOrigin } };
const unsupported = { error: { code: 'unsupported_media_type', message: errorMessages.unsupportedMediaType } };
const badRequest = { error: { code: 'validation', message: errorMessages.badRequest } };
const JSON_TYPE = { 'content-type': 'application/json' };

async function listen(t: TestApp): Promise<number> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return (t.app.server.address() as AddressInfo).port;
}

const countUsers = async (t: TestApp) =>
  Number((await t.database.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe.each(testDialects)('writes sent from other sites, and form bodies (%s)', (dialect) => {
  let t: TestApp;
  let port: number;
  let victim: Awaited<ReturnType<typeof registerUser>>;
  let attacker: Awaited<ReturnType<typeof registerUser>>;

  beforeAll(async () => {
    t = await createTestApp(dialect, { PUBLIC_BASE_URL: PUBLIC, AUTH_RATE_LIMIT_IP: '0', AUTH_RATE_LIMIT_EMAIL: '0' });
    victim = await registerUser(t.app);
    attacker = await registerUser(t.app);
    port = await listen(t);
  });
  afterAll(async () => t?.close());

  const loginForm = (who: { user: { email: string }; password: string }) => multipart({ email: who.user.email, password: who.password });
  const loginJson = (who: { user: { email: string }; password: string }) => JSON.stringify({ email: who.user.email, password: who.password });
  const sessionOf = (cookie: string) => send(port, { method: 'GET', path: '/api/auth/session', headers: { cookie } });

  it('refuses a login from another site whatever the spelling of the path: no session for the attacker’s account', async () => {
    const form = await loginForm(attacker);
    for (const api of ['/api', '/%61pi', '/%61%70%69']) {
      for (const [label, request] of [
        ['form', { headers: { ...form.headers, origin: EVIL }, body: form.payload }],
        ['JSON', { headers: { ...JSON_TYPE, origin: EVIL }, body: loginJson(attacker) }],
        ['JSON, Sec-Fetch-Site cross-site, no Origin', { headers: { ...JSON_TYPE, 'sec-fetch-site': 'cross-site' }, body: loginJson(attacker) }],
        ['JSON, Sec-Fetch-Site same-site, no Origin', { headers: { ...JSON_TYPE, 'sec-fetch-site': 'same-site' }, body: loginJson(attacker) }],
      ] as const) {
        const response = await send(port, { method: 'POST', path: `${api}/auth/login`, ...request });
        expect(response.status, `${api} ${label}: ${response.body}`).toBe(403);
        expect(JSON.parse(response.body)).toEqual(forbidden);
        expect(response.headers['set-cookie'], `${api} ${label}`).toBeUndefined();
      }
    }
  });

  it('refuses a sign-up from another site (a multipart form any page can send) and stores nothing', async () => {
    const before = await countUsers(t);
    const pictures = await readdir(path.join(t.config.dataDir, 'storage', 'profile-pictures'));
    for (const api of ['/api', '/%61pi']) {
      const form = await multipart({
        name: 'Plantada',
        email: `plantada-${dialect}@corto.test`,
        password: 'secreto-123',
        profileImage: { bytes: await makeImage(), filename: 'a.png', type: 'image/png' },
      });
      const response = await send(port, { method: 'POST', path: `${api}/auth/register`, headers: { ...form.headers, origin: EVIL }, body: form.payload });
      expect(response.status, `${api}: ${response.body}`).toBe(403);
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    expect(await countUsers(t)).toBe(before);
    expect(await readdir(path.join(t.config.dataDir, 'storage', 'profile-pictures'))).toEqual(pictures);
  });

  it('refuses a logout from another site: the victim stays signed in', async () => {
    for (const api of ['/api', '/%61pi']) {
      for (const headers of [{ origin: EVIL }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }] as Array<Record<string, string>>) {
        const response = await send(port, { method: 'POST', path: `${api}/auth/logout`, headers: { cookie: victim.cookie, ...headers } });
        expect(response.status, `${api} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
    expect((await sessionOf(victim.cookie)).status).toBe(200);
  });

  it('refuses a write carrying the session cookie without a matching Origin or Sec-Fetch-Site: same-origin', async () => {
    const link = await createLinkAs(t.app, victim.cookie, { title: 'Protegido' });
    const created = { ...JSON_TYPE, cookie: victim.cookie };
    const body = JSON.stringify({ title: 'Colado', longUrl: 'https://example.com/colado' });
    for (const api of ['/api', '/%61pi']) {
      const refused = await send(port, { method: 'POST', path: `${api}/links`, headers: created, body });
      expect(refused.status).toBe(403);
      // A script (curl with the cookie, no Origin) is told what to send.
      expect(JSON.parse(refused.body).error.message).toBe(authMessages.cookieWithoutOrigin);
      expect(JSON.parse(refused.body).error.message).toMatch(/cabecera Origin.*«Origin: https:\/\/corto\.example»/);
      // A browser's write from another site keeps its own message.
      const foreign = await send(port, { method: 'POST', path: `${api}/links`, headers: { ...created, origin: 'https://malo.example' }, body });
      expect(JSON.parse(foreign.body)).toEqual(forbidden);
      expect((await send(port, { method: 'DELETE', path: `${api}/links/${link.id}`, headers: { cookie: victim.cookie } })).status).toBe(403);
      expect((await send(port, { method: 'POST', path: `${api}/auth/logout`, headers: { cookie: victim.cookie } })).status).toBe(403);
    }
    const rows = await t.database.db.selectFrom('urls').select('title').execute();
    expect(rows.map((row) => row.title)).not.toContain('Colado');
    expect(rows.map((row) => row.title)).toContain('Protegido');
    expect((await sessionOf(victim.cookie)).status).toBe(200);

    // The web app's own calls: a browser sends Origin and Sec-Fetch-Site: same-origin on a
    // same-origin fetch; either one alone is enough.
    const own = `http://127.0.0.1:${port}`;
    for (const headers of [{ origin: PUBLIC, 'sec-fetch-site': 'same-origin' }, { origin: own }, { origin: PUBLIC }, sameOrigin] as Array<Record<string, string>>) {
      const response = await send(port, { method: 'POST', path: '/api/links', headers: { ...created, ...headers }, body });
      expect(response.status, `${JSON.stringify(headers)}: ${response.body}`).toBe(201);
    }
  });

  it('lets a script without a cookie or browser headers through (curl), and the web app’s own sign-in', async () => {
    const login = await send(port, { method: 'POST', path: '/api/auth/login', headers: JSON_TYPE, body: loginJson(victim) });
    expect(login.status, login.body).toBe(200);
    expect(String(login.headers['set-cookie'])).toMatch(/^corto_session=/);
    const fromTheApp = await send(port, {
      method: 'POST',
      path: '/api/auth/login',
      headers: { ...JSON_TYPE, origin: PUBLIC, 'sec-fetch-site': 'same-origin' },
      body: loginJson(victim),
    });
    expect(fromTheApp.status, fromTheApp.body).toBe(200);
    const form = await multipart({
      name: 'Guion',
      email: `guion-${dialect}@corto.test`,
      password: 'secreto-123',
      profileImage: { bytes: await makeImage(), filename: 'a.png', type: 'image/png' },
    });
    const registered = await send(port, { method: 'POST', path: '/api/auth/register', headers: form.headers, body: form.payload });
    expect(registered.status, registered.body).toBe(201);
    // The app's logout: a POST with no body at all.
    const cookie = String(fromTheApp.headers['set-cookie']).split(';')[0]!;
    const logout = await send(port, { method: 'POST', path: '/api/auth/logout', headers: { cookie, origin: PUBLIC, 'sec-fetch-site': 'same-origin' } });
    expect(logout.status).toBe(204);
  });

  it('takes only JSON on login and logout: a form body is 415 with the envelope, whatever its origin', async () => {
    const form = await loginForm(attacker);
    const urlencoded = { 'content-type': 'application/x-www-form-urlencoded' };
    const encoded = `email=${encodeURIComponent(attacker.user.email)}&password=${encodeURIComponent(attacker.password)}`;
    for (const [label, path, headers, body] of [
      ['login, multipart', '/api/auth/login', form.headers, form.payload],
      ['login, multipart, encoded path', '/%61pi/auth/login', form.headers, form.payload],
      ['login, urlencoded', '/api/auth/login', urlencoded, encoded],
      ['login, text/plain', '/api/auth/login', { 'content-type': 'text/plain' }, loginJson(attacker)],
      ['logout, multipart', '/api/auth/logout', form.headers, form.payload],
      ['logout, urlencoded', '/api/auth/logout', urlencoded, 'a=b'],
      ['logout, empty urlencoded', '/api/auth/logout', urlencoded, ''],
      ['logout, text/plain', '/api/auth/logout', { 'content-type': 'text/plain' }, ''],
      ['links, multipart', '/api/links', form.headers, form.payload],
    ] as Array<[string, string, Record<string, string>, string | Buffer]>) {
      const response = await send(port, { method: 'POST', path, headers, body });
      expect(response.status, `${label}: ${response.body}`).toBe(415);
      expect(JSON.parse(response.body)).toEqual(unsupported);
      expect(response.headers['set-cookie'], label).toBeUndefined();
    }
  });
});

describe('HTTP timeouts against a slow client', () => {
  let t: TestApp;
  let port: number;
  const open: RawConnection[] = [];

  beforeAll(async () => {
    t = await createTestApp('sqlite', { HTTP_REQUEST_TIMEOUT_MS: '1500', HTTP_HEADERS_TIMEOUT_MS: '600', HTTP_KEEP_ALIVE_TIMEOUT_MS: '600' });
    port = await listen(t);
  });
  afterAll(async () => {
    for (const connection of open) connection.socket.destroy();
    await t?.close();
  });

  const connection = async () => {
    const made = await connect(port);
    open.push(made);
    return made;
  };
  /** Writes `piece` every 100 ms until the server closes the connection. */
  const trickle = (made: RawConnection, piece: string) => {
    const timer = setInterval(() => made.socket.writable && made.socket.write(piece), 100);
    void made.closed.then(() => clearInterval(timer));
  };
  // Far beyond the configured timeouts: only a server that never closes fails here.
  const closedByServer = (made: RawConnection, what: string) => until(() => made.isClosed(), what, { limitMs: 15_000, everyMs: 50 });
  const expectTimeoutAnswer = (made: RawConnection) => {
    const { status, body } = parseAnswer(made.received());
    expect(status, made.received()).toBe(408);
    expect(body).toEqual({ error: { code: 'request_timeout', message: errorMessages.requestTimeout } });
  };

  it('cuts off a body trickled a byte at a time, with 408 and the envelope', async () => {
    const made = await connection();
    made.socket.write('POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
    trickle(made, ' ');
    await closedByServer(made, 'the trickled body cut off');
    expectTimeoutAnswer(made);
  });

  it('cuts off headers trickled a line at a time, with 408 and the envelope', async () => {
    const made = await connection();
    made.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    trickle(made, 'X-Relleno: a\r\n');
    await closedByServer(made, 'the trickled headers cut off');
    expectTimeoutAnswer(made);
  });

  it('closes a connection that never sends a request', async () => {
    const made = await connection();
    await closedByServer(made, 'the silent connection closed');
  });

  it('closes an idle kept-alive connection after its answer', async () => {
    const made = await connection();
    made.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await until(() => made.received().includes('\r\n\r\n'), 'the health answer');
    expect(parseAnswer(made.received()).status).toBe(200);
    await closedByServer(made, 'the idle kept-alive connection closed');
  });

  it('answers a client that sends its request in pieces at a real pace', async () => {
    const made = await connection();
    const body = JSON.stringify({ email: 'nadie@corto.test', password: 'secreto-123' });
    made.socket.write('POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n');
    await new Promise((resolve) => setTimeout(resolve, 150));
    made.socket.write(`Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    for (const piece of [body.slice(0, 10), body.slice(10)]) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      made.socket.write(piece);
    }
    await closedByServer(made, 'the answer');
    expect(parseAnswer(made.received()).status).toBe(401);
  });
});

describe('uploads cut off half-way', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp('sqlite', { AUTH_RATE_LIMIT_IP: '0', AUTH_RATE_LIMIT_EMAIL: '0' });
    port = await listen(t);
  });
  afterAll(async () => t?.close());

  /** A sign-up whose multipart body stops 100 bytes into the picture. */
  async function truncatedSignUp() {
    const form = await multipart({
      name: 'Cortada',
      email: 'cortada@corto.test',
      password: 'secreto-123',
      profileImage: { bytes: await makeImage('png', 256, 256), filename: 'a.png', type: 'image/png' },
    });
    const pictureAt = form.payload.indexOf('Content-Type: image/png\r\n\r\n') + 'Content-Type: image/png\r\n\r\n'.length;
    return { contentType: form.headers['content-type'], body: form.payload.subarray(0, pictureAt + 100), whole: form.payload.length };
  }
  const head = (contentType: string, length: string) =>
    `POST /api/auth/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\n${length}\r\n\r\n`;

  async function answerTo(write: (made: RawConnection) => void): Promise<{ status: number; body: unknown }> {
    const made = await connect(port);
    write(made);
    await until(() => made.isClosed() || /\r\n\r\n[^]*\}$/.test(made.received()), 'an answer');
    made.socket.destroy();
    return parseAnswer(made.received());
  }

  it('answers 400 with the envelope, not 500, when the body ends inside the picture, and stores nothing', async () => {
    const { contentType, body } = await truncatedSignUp();
    // A complete HTTP body that is a cut-off multipart one, sized and chunked.
    const sized = await answerTo((made) => made.socket.end(Buffer.concat([Buffer.from(head(contentType, `Content-Length: ${body.length}`)), body])));
    expect(sized).toEqual({ status: 400, body: badRequest });
    const chunked = await answerTo((made) =>
      made.socket.end(
        Buffer.concat([
          Buffer.from(head(contentType, 'Transfer-Encoding: chunked')),
          Buffer.from(`${body.length.toString(16)}\r\n`),
          body,
          Buffer.from('\r\n0\r\n\r\n'),
        ]),
      ),
    );
    expect(chunked).toEqual({ status: 400, body: badRequest });
    expect(await countUsers(t)).toBe(0);
  });

  it('answers 400 with the envelope when the client stops sending half-way and closes its side', async () => {
    const { contentType, body, whole } = await truncatedSignUp();
    const halfClosed = await answerTo((made) => made.socket.end(Buffer.concat([Buffer.from(head(contentType, `Content-Length: ${whole}`)), body])));
    expect(halfClosed).toEqual({ status: 400, body: badRequest });
    expect(await countUsers(t)).toBe(0);
  });
});
