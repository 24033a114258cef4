import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';
import { hashToken } from './sessions';

const DAY = 24 * 60 * 60 * 1000;

describe.each(testDialects)('sessions (%s)', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
  });
  afterEach(async () => t.close());

  const getSession = (cookie?: string) =>
    t.app.inject({ method: 'GET', url: '/api/auth/session', headers: cookie ? { cookie } : {} });
  const sessions = () => t.database.db.selectFrom('sessions').selectAll().execute();

  it('answers 200 { user: null } when nobody is signed in (a signed-out page logs no error)', async () => {
    const response = await getSession();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: null });
  });

  it('stores only a hash of the token, with an expiry about 30 days ahead', async () => {
    const { cookie } = await registerUser(t.app);
    const token = cookie.split('=')[1]!;
    const [row] = await sessions();
    expect(row?.token_hash).toBe(hashToken(token));
    expect(row?.token_hash).not.toContain(token);
    expect(row!.expires_at - row!.created_at).toBe(30 * DAY);
  });

  it('logs out: 204, cookie cleared, session gone from the server so the old cookie no longer works', async () => {
    const { cookie } = await registerUser(t.app);
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie, ...sameOrigin } });
    expect(response.statusCode).toBe(204);
    const cleared = response.cookies.find((c) => c.name === 'corto_session');
    expect(cleared?.value).toBe('');
    expect(await sessions()).toEqual([]);
    expect((await getSession(cookie)).json()).toEqual({ user: null });
  });

  it('logs out with no session at all: still 204', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(response.statusCode).toBe(204);
  });

  it('ends only the session that logs out', async () => {
    const { cookie, user, password } = await registerUser(t.app);
    const other = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } });
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie, ...sameOrigin } })).statusCode).toBe(204);
    const otherCookie = `corto_session=${other.cookies.find((c) => c.name === 'corto_session')?.value}`;
    expect((await getSession(otherCookie)).json().user.id).toBe(user.id);
  });

  it('refuses an expired session and clears the cookie', async () => {
    const { cookie } = await registerUser(t.app);
    await t.database.db.updateTable('sessions').set({ expires_at: Date.now() - 1000 }).execute();
    const response = await getSession(cookie);
    expect(response.json()).toEqual({ user: null });
    expect(response.cookies.find((c) => c.name === 'corto_session')?.value).toBe('');
  });

  it('renews a session in use: the expiry moves forward and the cookie is sent again', async () => {
    const { cookie } = await registerUser(t.app);
    const soon = Date.now() + 2 * DAY;
    await t.database.db.updateTable('sessions').set({ expires_at: soon }).execute();
    const response = await getSession(cookie);
    expect(response.statusCode).toBe(200);
    const [row] = await sessions();
    expect(row!.expires_at).toBeGreaterThan(soon + 27 * DAY);
    const renewed = response.cookies.find((c) => c.name === 'corto_session');
    expect(`corto_session=${renewed?.value}`).toBe(cookie);
    expect(renewed?.expires?.getTime()).toBe(row!.expires_at - (row!.expires_at % 1000));
  });

  it('sweeps expired sessions, anyone\'s, when a new one starts', async () => {
    const { cookie: staleCookie } = await registerUser(t.app);
    await t.database.db.updateTable('sessions').set({ expires_at: Date.now() - 1000 }).execute();
    await registerUser(t.app);
    const rows = await sessions();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toBe(hashToken(staleCookie.split('=')[1]!));
  });

  it('does not rewrite a fresh session on every request', async () => {
    const { cookie } = await registerUser(t.app);
    const [before] = await sessions();
    const response = await getSession(cookie);
    expect(response.cookies).toEqual([]);
    expect((await sessions())[0]!.expires_at).toBe(before!.expires_at);
  });
});
