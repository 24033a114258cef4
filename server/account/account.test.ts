import { existsSync } from 'node:fs';
import path from 'node:path';
import { accountMessages as a } from '@common/account/account-messages';
import { authMessages as m } from '@common/auth/auth-messages';
import type { User } from '@common/auth/auth-schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { makeImage, multipart, registerUser, sameOrigin, sessionCookie } from '../test/test-users';

const firefoxLinux = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const safariIphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe.each(testDialects)('the account page API on %s', (dialect) => {
  let t: TestApp;
  let me: { user: User; cookie: string; password: string };
  beforeEach(async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '0' });
    me = await registerUser(t.app, { name: 'Ana Cuenta' });
  });
  afterEach(async () => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: object, cookie = me.cookie) =>
    t.app.inject({ method, url, headers: { cookie, ...sameOrigin }, ...(payload ? { payload } : {}) });
  const login = (email: string, password: string, userAgent = firefoxLinux) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'user-agent': userAgent }, payload: { email, password } });
  const whoIs = async (cookie: string) => (await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } })).json().user;

  it('changes the name, and refuses a blank or too long one with its message under the field', async () => {
    const changed = await call('PATCH', '/api/account', { name: ' Ana Nueva ' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().user).toMatchObject({ name: 'Ana Nueva', email: me.user.email, totp: false });
    for (const [name, message] of [['  ', m.nameRequired], ['x'.repeat(101), m.nameTooLong]] as const) {
      const refused = await call('PATCH', '/api/account', { name });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields.name).toEqual([message]);
    }
    expect((await whoIs(me.cookie)).name).toBe('Ana Nueva');
  });

  it('replaces the picture with the sign-up rules and naming, removing the old file', async () => {
    const folder = path.join(t.config.dataDir, 'storage', 'profile-pictures');
    const oldFile = path.join(folder, path.basename(me.user.profileImage));
    expect(existsSync(oldFile)).toBe(true);
    const body = await multipart({ profileImage: { bytes: await makeImage('jpeg', 80, 80), filename: 'nueva.jpg', type: 'image/jpeg' } });
    const response = await t.app.inject({ method: 'PUT', url: '/api/account/picture', ...body, headers: { ...body.headers, cookie: me.cookie, ...sameOrigin } });
    expect(response.statusCode, response.body).toBe(200);
    const picture: string = response.json().user.profileImage;
    expect(path.basename(picture)).toMatch(/^dp-Ana-Cuenta-\d{13}-[\w-]{22}\.jpg$/);
    expect(existsSync(path.join(folder, path.basename(picture)))).toBe(true);
    expect(existsSync(oldFile)).toBe(false);

    const text = await multipart({ profileImage: { bytes: Buffer.from('no soy una imagen'), filename: 'x.png', type: 'image/png' } });
    const refused = await t.app.inject({ method: 'PUT', url: '/api/account/picture', ...text, headers: { ...text.headers, cookie: me.cookie, ...sameOrigin } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields.profileImage).toEqual([m.profileImageType]);
    expect(existsSync(path.join(folder, path.basename(picture)))).toBe(true);
  });

  it('changes the e-mail with the password, and refuses a wrong password or an address in use in any case', async () => {
    const other = await registerUser(t.app, { email: `Otra-${Date.now()}@corto.test` });
    const wrong = await call('POST', '/api/account/email', { email: 'nueva@corto.test', password: 'no-es-esta' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.password).toEqual([a.wrongPassword]);
    const taken = await call('POST', '/api/account/email', { email: other.user.email.toUpperCase(), password: me.password });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.fields.email).toEqual([m.emailTaken]);
    const bad = await call('POST', '/api/account/email', { email: 'sin-arroba', password: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({ email: [m.registerEmailInvalid], password: [a.passwordConfirmRequired] });
    expect((await whoIs(me.cookie)).email).toBe(me.user.email);

    const changed = await call('POST', '/api/account/email', { email: 'Ana.Nueva@corto.test', password: me.password });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().user.email).toBe('Ana.Nueva@corto.test');
    expect((await login('ana.nueva@corto.test', me.password)).statusCode).toBe(200);
  });

  it('changes the password with the current one, ending every other session; a wrong one changes nothing', async () => {
    const elsewhere = sessionCookie(await login(me.user.email, me.password));
    const wrong = await call('POST', '/api/account/password', { currentPassword: 'equivocada-1', newPassword: 'nueva-clave-987' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.currentPassword).toEqual([a.wrongPassword]);
    expect(await whoIs(elsewhere)).not.toBeNull();
    expect((await login(me.user.email, me.password)).statusCode).toBe(200);

    const common = await call('POST', '/api/account/password', { currentPassword: me.password, newPassword: 'password123' });
    expect(common.statusCode).toBe(400);
    expect(common.json().error.fields.newPassword).toEqual([m.passwordCommon]);

    const changed = await call('POST', '/api/account/password', { currentPassword: me.password, newPassword: 'nueva-clave-987' });
    expect(changed.statusCode).toBe(204);
    expect(await whoIs(elsewhere)).toBeNull();
    expect((await whoIs(me.cookie)).id).toBe(me.user.id);
    expect((await login(me.user.email, me.password)).statusCode).toBe(401);
    expect((await login(me.user.email, 'nueva-clave-987')).statusCode).toBe(200);
  });

  it('lists the sessions with browser, times and which is this one; closes one, and all the others', async () => {
    const phone = sessionCookie(await login(me.user.email, me.password, safariIphone));
    const laptop = sessionCookie(await login(me.user.email, me.password, firefoxLinux));
    const listed = await call('GET', '/api/account/sessions', undefined, laptop);
    expect(listed.statusCode).toBe(200);
    const sessions = listed.json().sessions as Array<{ id: string; device: string; current: boolean; createdAt: string; lastSeenAt: string }>;
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s) => s.current).map((s) => s.device)).toEqual(['Firefox en Linux']);
    expect(sessions.map((s) => s.device)).toContain('Mobile Safari en iPhone');
    for (const s of sessions) expect(Date.parse(s.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(s.createdAt));

    const phoneId = sessions.find((s) => s.device.includes('iPhone'))!.id;
    expect((await call('DELETE', `/api/account/sessions/${phoneId}`, undefined, laptop)).statusCode).toBe(204);
    expect(await whoIs(phone)).toBeNull();
    // Gone, another user's, or made up: the same 404.
    const stranger = await registerUser(t.app);
    expect((await call('DELETE', `/api/account/sessions/${phoneId}`, undefined, laptop)).statusCode).toBe(404);
    const theirs = (await call('GET', '/api/account/sessions', undefined, stranger.cookie)).json().sessions[0].id;
    expect((await call('DELETE', `/api/account/sessions/${theirs}`, undefined, laptop)).json().error.message).toBe(a.sessionNotFound);
    expect(await whoIs(stranger.cookie)).not.toBeNull();

    expect((await call('DELETE', '/api/account/sessions', undefined, laptop)).statusCode).toBe(204);
    expect(await whoIs(me.cookie)).toBeNull();
    expect((await whoIs(laptop)).id).toBe(me.user.id);
    expect((await call('GET', '/api/account/sessions', undefined, laptop)).json().sessions).toHaveLength(1);
  });

  it('records last seen at most once a minute per session', async () => {
    const row = () => t.database.db.selectFrom('sessions').select('last_seen_at').where('user_id', '=', me.user.id).executeTakeFirstOrThrow();
    const first = (await row()).last_seen_at!;
    await whoIs(me.cookie);
    expect((await row()).last_seen_at).toBe(first);
    // A minute ago: the next request writes the time again.
    await t.database.db.updateTable('sessions').set({ last_seen_at: first - 61_000 }).where('user_id', '=', me.user.id).execute();
    await whoIs(me.cookie);
    expect((await row()).last_seen_at).toBeGreaterThanOrEqual(first);
  });

  it('deletes the account only with the password, and its addresses answer 404 at once', async () => {
    const link = await createLinkAs(t.app, me.cookie);
    expect((await t.app.inject({ method: 'GET', url: `/${link.shortCode}` })).statusCode).toBe(302);
    const wrong = await call('DELETE', '/api/account', { password: 'no-es-esta' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.password).toEqual([a.wrongPassword]);
    expect(await whoIs(me.cookie)).not.toBeNull();

    const gone = await call('DELETE', '/api/account', { password: me.password });
    expect(gone.statusCode).toBe(204);
    expect(await whoIs(me.cookie)).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: `/${link.shortCode}` })).statusCode).toBe(404);
    expect((await login(me.user.email, me.password)).statusCode).toBe(401);
  });
});
