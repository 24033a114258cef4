import { accountMessages as a } from '@common/account/account-messages';
import type { User } from '@common/auth/auth-schemas';
import { Secret, TOTP } from 'otpauth';
import sharp from 'sharp';
import jsQR from 'jsqr';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser, sameOrigin, sessionCookie } from '../test/test-users';

/** The code an authenticator app shows for the secret, at a time (now by default). */
const codeFor = (secret: string, at = Date.now()) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

async function decodeDataUrl(dataUrl: string): Promise<string | undefined> {
  const png = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height)?.data;
}

describe.each(testDialects)('two-factor sign-in on %s', (dialect) => {
  let t: TestApp;
  let me: { user: User; cookie: string; password: string };
  beforeEach(async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '0', AUTH_RATE_LIMIT_EMAIL: '3' });
    me = await registerUser(t.app);
  });
  afterEach(async () => t.close());

  const call = (method: 'POST' | 'DELETE', url: string, payload?: object, cookie = me.cookie) =>
    t.app.inject({ method, url, headers: { cookie, ...sameOrigin }, ...(payload ? { payload } : {}) });
  const login = () => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: me.user.email, password: me.password } });
  const challengeOf = (response: { cookies: Array<{ name: string; value: string }> }) =>
    `corto_totp=${response.cookies.find((c) => c.name === 'corto_totp')!.value}`;
  const second = (code: string, challenge: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/totp', headers: { cookie: challenge }, payload: { code } });

  async function turnOn(): Promise<{ secret: string; recoveryCodes: string[] }> {
    const setup = await call('POST', '/api/account/totp');
    expect(setup.statusCode).toBe(200);
    const { secret } = setup.json();
    const confirmed = await call('POST', '/api/account/totp/confirm', { code: codeFor(secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return { secret, recoveryCodes: confirmed.json().recoveryCodes };
  }

  it('sets up with a QR of the otpauth URL made by the server, confirmed by a code, with ten recovery codes', async () => {
    const setup = await call('POST', '/api/account/totp');
    const { secret, otpauthUrl, qr } = setup.json();
    expect(otpauthUrl).toBe(`otpauth://totp/Corto:${encodeURIComponent(me.user.email)}?issuer=Corto&secret=${secret}&algorithm=SHA1&digits=6&period=30`);
    expect(await decodeDataUrl(qr)).toBe(otpauthUrl);

    const wrong = await call('POST', '/api/account/totp/confirm', { code: codeFor(secret, Date.now() - 10 * 60_000) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.code).toEqual([a.codeInvalid]);
    const malformed = await call('POST', '/api/account/totp/confirm', { code: '12ab' });
    expect(malformed.json().error.fields.code).toEqual([a.codeFormat]);

    const confirmed = await call('POST', '/api/account/totp/confirm', { code: codeFor(secret) });
    expect(confirmed.statusCode).toBe(200);
    const codes: string[] = confirmed.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z0-9]{5}-[A-Z0-9]{5}$/);
    const stored = await t.database.db.selectFrom('totp_recovery_codes').select('code_hash').execute();
    expect(stored).toHaveLength(10);
    for (const code of codes) expect(stored.map((row) => row.code_hash)).not.toContain(code);
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: me.cookie } });
    expect(session.json().user.totp).toBe(true);
    expect((await call('POST', '/api/account/totp')).statusCode).toBe(409);
  });

  it('asks the code after the password; a code signs in once, a recovery code once', async () => {
    const { secret, recoveryCodes } = await turnOn();
    const first = await login();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ totpRequired: true });
    expect(first.cookies.find((c) => c.name === 'corto_session')).toBeUndefined();
    const challenge = challengeOf(first);

    // The code of the confirmation was used: an app's next code is needed.
    const next = codeFor(secret, Date.now() + 30_000);
    const signedIn = await second(next, challenge);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().user).toMatchObject({ id: me.user.id, totp: true });
    const cookie = sessionCookie(signedIn);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } })).json().user.id).toBe(me.user.id);
    // The challenge is spent, and the code with it.
    expect((await second(next, challenge)).statusCode).toBe(401);
    const replay = await second(next, challengeOf(await login()));
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.fields.code).toEqual([a.codeSpent]);

    const withRecovery = challengeOf(await login());
    expect((await second(recoveryCodes[0]!.toLowerCase(), withRecovery)).statusCode).toBe(200);
    const reused = await second(recoveryCodes[0]!, challengeOf(await login()));
    expect(reused.statusCode).toBe(400);
    // A spent recovery code is told apart from a wrong one.
    expect(reused.json().error.fields.code).toEqual([a.recoveryCodeUsed]);
    const wrong = await second('ZZZZZ-ZZZZZ', challengeOf(await login()));
    expect(wrong.json().error.fields.code).toEqual([a.codeInvalid]);
  });

  it('refuses the second step without a challenge, and slows down code guesses like passwords', async () => {
    await turnOn();
    const none = await second('123456', 'corto_totp=inventado');
    expect(none.statusCode).toBe(401);
    expect(none.json().error.message).toBe(a.totpChallengeExpired);

    const challenge = challengeOf(await login());
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await second(String(100000 + i), challenge)).statusCode);
    // AUTH_RATE_LIMIT_EMAIL=3: three wrong guesses from this client, then 429 with Retry-After.
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
  });

  it('turns off only with the password and a code', async () => {
    const { secret } = await turnOn();
    const noPassword = await call('DELETE', '/api/account/totp', { password: 'equivocada', code: codeFor(secret, Date.now() + 30_000) });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().error.fields.password).toEqual([a.wrongPassword]);
    const badCode = await call('DELETE', '/api/account/totp', { password: me.password, code: '000000' });
    expect(badCode.statusCode).toBe(400);
    const missing = await call('DELETE', '/api/account/totp', {});
    expect(missing.json().error.fields).toEqual({ password: [a.passwordConfirmRequired], code: [a.codeRequired] });

    const off = await call('DELETE', '/api/account/totp', { password: me.password, code: codeFor(secret, Date.now() + 30_000) });
    expect(off.statusCode).toBe(204);
    expect((await login()).json().user.id).toBe(me.user.id);
    expect(await t.database.db.selectFrom('totp_recovery_codes').select('code_hash').execute()).toEqual([]);
    expect((await call('DELETE', '/api/account/totp', { password: me.password, code: '123456' })).statusCode).toBe(409);
  });
});
