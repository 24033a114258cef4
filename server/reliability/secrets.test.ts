import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Started } from '../../bench/lib/processes';
import { testDialects } from '../test/test-app';
import { makeImage, sameOrigin } from '../test/test-users';
import { type ProcessDatabase, processDatabase, startServer, withDatabase } from './server-process';

// A real server at the most talkative log level, taken through a user's whole journey (and some
// mistakes): no answer and no log line ever shows a password, its hash, or a session token.

describe.each(testDialects)('secrets on %s', (dialect) => {
  let database: ProcessDatabase;
  let server: Started;
  const answers: string[] = [];
  const tokens: string[] = [];
  const password = 'clave-Secreta-987';
  let base: string;

  async function call(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(`${base}${path}`, { redirect: 'manual', ...init });
    const body = await response.clone().text();
    const headers = [...response.headers].filter(([name]) => name !== 'set-cookie');
    answers.push(`${path} ${response.status} ${JSON.stringify(headers)} ${body}`);
    // The one place a token may travel: the Set-Cookie that hands it to its owner.
    for (const line of response.headers.getSetCookie()) {
      const token = /^corto_session=([^;]+)/.exec(line)?.[1];
      if (token) tokens.push(decodeURIComponent(token));
    }
    return response;
  }

  beforeAll(async () => {
    database = await processDatabase(dialect);
    server = await startServer(database, { LOG_LEVEL: 'trace' });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.drop();
  });

  it('never shows a password, a password hash or a session token in an answer or a log line', async () => {
    const email = `secretos-${dialect}@corto.test`;
    const form = new FormData();
    form.append('name', 'Guarda Secretos');
    form.append('email', email);
    form.append('password', password);
    form.append('profileImage', new Blob([new Uint8Array(await makeImage())], { type: 'image/png' }), 'a.png');
    const registered = await call('/api/auth/register', { method: 'POST', body: form });
    expect(registered.status).toBe(201);
    const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    expect((await call('/api/auth/login', json({ email, password: 'equivocada-1' }))).status).toBe(401);
    expect((await call('/api/auth/login', json({ email, password, extra: password }))).status).toBe(400);
    const login = await call('/api/auth/login', json({ email, password }));
    expect(login.status).toBe(200);
    const cookie = `corto_session=${tokens.at(-1)}`;
    const signedIn = (init: RequestInit = {}) => ({ ...init, headers: { ...(init.headers as Record<string, string>), cookie, ...sameOrigin } });

    expect((await call('/api/auth/session', signedIn())).status).toBe(200);
    const created = await call('/api/links', signedIn(json({ title: 'Secreto', longUrl: 'https://example.com/s' })));
    expect(created.status).toBe(201);
    const { link } = (await created.json()) as { link: { id: number; shortCode: string } };
    expect((await call(`/${link.shortCode}`, { headers: { cookie } })).status).toBe(302);
    for (const path of ['/api/links', `/api/links/${link.id}`, `/api/links/${link.id}/stats`, `/api/links/${link.id}/clicks.csv`, '/api/links/999']) {
      expect((await call(path, signedIn())).status).toBeLessThan(500);
    }
    expect((await call('/api/links', signedIn({ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }))).status).toBe(400);
    expect((await call('/api/links', { headers: { cookie: `corto_session=${password}` } })).status).toBe(401);
    expect((await call('/api/auth/logout', signedIn({ method: 'POST' }))).status).toBe(204);

    // Stopped first: SQLite's folder is locked by the process that holds it.
    expect(await server.stop('SIGTERM')).toBe(0);
    const stored = await withDatabase(database, async ({ db }) => ({
      hashes: (await db.selectFrom('users').select('password_hash').execute()).map((row) => row.password_hash),
      tokenHashes: (await db.selectFrom('sessions').select('token_hash').execute()).map((row) => row.token_hash),
    }));
    expect(stored.hashes).toHaveLength(1);
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    // The hash, and its digest part alone (in case a line shortened it).
    const secrets = [password, ...tokens, ...stored.hashes, ...stored.hashes.map((hash) => hash.split('$').at(-1)!), ...stored.tokenHashes];

    const logs = server.output();
    expect(logs.split('\n').length, 'trace level logs every request').toBeGreaterThan(20);
    for (const secret of secrets) {
      expect(logs.includes(secret), `a log line shows ${secret.slice(0, 12)}...`).toBe(false);
      for (const answer of answers) expect(answer.includes(secret), `an answer shows ${secret.slice(0, 12)}...: ${answer.slice(0, 120)}`).toBe(false);
    }
  });
});
