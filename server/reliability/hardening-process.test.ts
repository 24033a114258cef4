import { errorMessages } from '@common/messages';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Started } from '../../bench/lib/processes';
import { makeImage, multipart, sameOrigin } from '../test/test-users';
import { connect } from './http-client';
import { type ProcessDatabase, processDatabase, startServer, until } from './server-process';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

// A real server process, its log read from its output: clients that give up half-way through an
// upload, and a database that goes silent while calls with a body wait for it.

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  req?: { url: string };
  /** The API deadline's lines: 'METHOD /route/:pattern'. */
  route?: string;
}

const logLines = (server: Started): LogLine[] =>
  server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

const signUpForm = async (email: string) => {
  const form = new FormData();
  form.append('name', 'Proceso');
  form.append('email', email);
  form.append('password', 'secreto-123');
  form.append('profileImage', new Blob([new Uint8Array(await makeImage())], { type: 'image/png' }), 'a.png');
  return form;
};

describe('a client that disconnects half-way through an upload', () => {
  let database: ProcessDatabase | undefined;
  let server: Started | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.drop();
  });

  it('is logged as a closed connection, not as a database outage nor as a failure of ours', async () => {
    database = await processDatabase('sqlite');
    server = await startServer(database, { LOG_LEVEL: 'info' });
    const running = server;
    const picture = await multipart({
      name: 'Impaciente',
      email: 'impaciente@corto.test',
      password: 'secreto-123',
      profileImage: { bytes: await makeImage('png', 512, 512), filename: 'a.png', type: 'image/png' },
    });
    const type = picture.headers['content-type'];
    const inPicture = picture.payload.indexOf('image/png\r\n\r\n') + 2000;
    const inName = picture.payload.indexOf('Impaciente') + 4;
    const login = '{"email":"impaciente@corto.test","pass';
    const uploads: Array<[string, string, Buffer, 'end' | 'reset']> = [
      ['sign-up, inside the picture, closed', `POST /api/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${picture.payload.length}\r\n\r\n`, picture.payload.subarray(0, inPicture), 'end'],
      ['sign-up, inside the picture, reset', `POST /api/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${picture.payload.length}\r\n\r\n`, picture.payload.subarray(0, inPicture), 'reset'],
      ['sign-up, inside a field, closed', `POST /api/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${picture.payload.length}\r\n\r\n`, picture.payload.subarray(0, inName), 'end'],
      ['login, inside the JSON, reset', 'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n', Buffer.from(login), 'reset'],
    ];
    const incoming = () => logLines(running).filter((line) => line.msg === 'incoming request');
    const given: string[] = [];
    for (const [label, head, body, how] of uploads) {
      const before = incoming().length;
      const made = await connect(running.port);
      made.socket.write(head);
      made.socket.write(body);
      // Given up once the server is reading it.
      await until(() => incoming().length > before, `${label}: the request reached the server`);
      given.push(incoming().at(-1)!.reqId!);
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (how === 'reset') made.socket.resetAndDestroy();
      else made.socket.destroy();
    }
    // What the server said about each request once it noticed.
    const verdicts = () =>
      logLines(running).filter((line) => line.reqId && given.includes(line.reqId) && line.level >= 30 && line.msg !== 'incoming request');
    await until(() => given.every((id) => verdicts().some((line) => line.reqId === id)), 'a log line on each given-up upload', { limitMs: 10_000 });

    const lines = logLines(running);
    expect(lines.filter((line) => /database/i.test(line.msg)), 'database warnings').toEqual([]);
    expect(lines.filter((line) => line.level >= 40), 'warnings and errors').toEqual([]);
    for (const id of given) {
      const said = verdicts().filter((line) => line.reqId === id);
      expect(said.map((line) => line.msg).join(' / '), id).toMatch(/client closed the connection/);
      expect(said.every((line) => line.level <= 30), id).toBe(true);
    }
    // And the server goes on as before.
    expect((await fetch(`http://127.0.0.1:${running.port}/api/health`)).status).toBe(200);
  }, 60_000);
});

// SQLite cannot go silent: it is a file in this process, and a statement waiting on a lock blocks
// the thread and then fails with SQLITE_BUSY (already a 503). A PostgreSQL behind a partition can.
describe.runIf(process.env.TEST_DATABASE_URL)('calls with a body while PostgreSQL is silent', () => {
  const DEADLINE_MS = 1000;
  // A call that hangs fails here rather than holding the suite.
  const WAIT_MS = 15_000;
  let database: ProcessDatabase | undefined;
  let proxy: TcpProxy | undefined;
  let server: Started | undefined;
  afterEach(async (context) => {
    // What the server said, when the test failed: which answer came instead, and why.
    if (context.task.result?.state === 'fail' && server) console.log(server.output().split('\n').filter((line) => !/"level":30/.test(line)).join('\n'));
    proxy?.resume();
    await server?.stop('SIGKILL');
    await proxy?.close();
    await database?.drop();
  });

  it('answers sign-up, login, creation, deletion and logout 503 within the API deadline', async () => {
    database = await processDatabase('postgres');
    const real = new URL(process.env.TEST_DATABASE_URL!);
    proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
    server = await startServer(database, {
      DATABASE_URL: database.postgresUrl({ host: '127.0.0.1', port: proxy.port }),
      API_DEADLINE_MS: String(DEADLINE_MS),
      AUTH_RATE_LIMIT_IP: '0',
    });
    const base = `http://127.0.0.1:${server.port}`;
    const registered = await fetch(`${base}/api/auth/register`, { method: 'POST', body: await signUpForm('silencio@corto.test') });
    expect(registered.status).toBe(201);
    const cookie = registered.headers.getSetCookie()[0]!.split(';')[0]!;
    const signedIn = { cookie, ...sameOrigin };
    const made = await fetch(`${base}/api/links`, {
      method: 'POST',
      headers: { ...signedIn, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Antes', longUrl: 'https://example.com/antes' }),
    });
    expect(made.status).toBe(201);
    const { link } = (await made.json()) as { link: { id: number } };
    // Open connections in the pool, which the partition then leaves hanging.
    await Promise.all(Array.from({ length: 8 }, () => fetch(`${base}/api/links`, { headers: signedIn })));

    proxy.stall();
    // [route, address, request]
    const calls: Array<[string, string, () => Promise<RequestInit>]> = [
      ['POST /api/auth/register', '/api/auth/register', async () => ({ method: 'POST', body: await signUpForm('silencio-2@corto.test') })],
      ['POST /api/auth/login', '/api/auth/login', async () => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'silencio@corto.test', password: 'secreto-123' }) })],
      ['POST /api/links', '/api/links', async () => ({ method: 'POST', headers: { ...signedIn, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Durante', longUrl: 'https://example.com/durante' }) })],
      ['DELETE /api/links/:id', `/api/links/${link.id}`, async () => ({ method: 'DELETE', headers: signedIn })],
      ['POST /api/auth/logout', '/api/auth/logout', async () => ({ method: 'POST', headers: signedIn })],
    ];
    const running = server;
    await Promise.all(
      calls.map(async ([label, path, init]) => {
        const response = await fetch(`${base}${path}`, { ...(await init()), signal: AbortSignal.timeout(WAIT_MS) }).catch((error: Error) => {
          throw new Error(`${label}: no answer within ${WAIT_MS} ms (${error.name})`);
        });
        const body = await response.text();
        expect(response.status, `${label}: ${body}`).toBe(503);
        expect(JSON.parse(body)).toEqual({ error: { code: 'database_unavailable', message: errorMessages.databaseUnavailable } });
      }),
    );
    // Answered by the deadline (1 s), not by the pool giving up on a new connection (5 s, logged
    // 'database unavailable'), which is all a call with a body used to get, when it did not hang.
    const pastDeadline = () =>
      logLines(running)
        .filter((line) => /past its deadline/.test(line.msg))
        .map((line) => line.route);
    // The log reaches the test's pipe a moment after the answers.
    await until(() => calls.every(([route]) => pastDeadline().includes(route)), 'a deadline line for each call', { limitMs: 5000 }).catch(() => {});
    for (const [route] of calls) expect(pastDeadline(), route).toContain(route);
    proxy.resume();
    // Health rather than the list: the logout above may well have gone through once the database answered.
    await until(async () => (await fetch(`${base}/api/health`)).status === 200, 'the API back after the partition');
  }, 90_000);
});
