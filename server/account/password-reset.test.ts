import { accountMessages as a } from '@common/account/account-messages';
import { authMessages as m } from '@common/auth/auth-messages';
import type { User } from '@common/auth/auth-schemas';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { startSmtpCapture, type SmtpCapture } from '../test/smtp-capture';
import { registerUser, sameOrigin, sessionCookie } from '../test/test-users';
import { createResetLink } from './password-reset';
import { resetRequestedMessage } from './password-reset.routes';

let smtp: SmtpCapture;
beforeAll(async () => (smtp = await startSmtpCapture()));
afterAll(async () => smtp.close());

/** The next reset mail (sign-ups' confirmation links arrive in between). */
const nextReset = () => smtp.nextWhere((mail) => mail.subject === 'Restablece tu contraseña de Corto');

/** The token of the reset link in a message's text, checked to be the same link as in its HTML. */
function linkOf(mail: { text?: string; html?: string | false }, base: string): URL {
  const found = mail.text?.match(/https?:\/\/\S+\/auth\/restablecer\?token=[\w-]+/);
  if (!found) throw new Error(`no reset link in: ${mail.text}`);
  expect(found[0].startsWith(`${base}/auth/restablecer?token=`)).toBe(true);
  expect(mail.html).toContain(`href="${found[0]}"`);
  return new URL(found[0]);
}

describe.each(testDialects)('password recovery by e-mail on %s', (dialect) => {
  let t: TestApp;
  let me: { user: User; cookie: string; password: string };
  const base = 'https://corto.example';
  beforeEach(async () => {
    t = await createTestApp(dialect, { SMTP_URL: smtp.url, MAIL_FROM: 'Corto <no-reply@corto.example>', PUBLIC_BASE_URL: base, AUTH_RATE_LIMIT_IP: '0' });
    me = await registerUser(t.app, { name: 'Ana Olvido' });
  });
  afterEach(async () => t.close());

  const ask = (email: unknown) => t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email } });
  const confirm = (token: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token, password } });
  const login = (password: string) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: me.user.email, password } });

  it('says it is available, and answers the same for an address with an account and one without', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/password-reset' })).json()).toEqual({ available: true });
    // The unknown address first: had it sent anything, it would arrive before the known one's.
    const unknown = await ask('nadie-aqui@corto.test');
    const known = await ask(me.user.email.toUpperCase());
    for (const response of [known, unknown]) {
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ message: resetRequestedMessage });
    }
    expect(known.headers['set-cookie']).toEqual(unknown.headers['set-cookie']);
    const mail = await nextReset();
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe(me.user.email);
    const recipients = smtp.messages.map((message) => (message.to && 'text' in message.to ? message.to.text : ''));
    expect(recipients).not.toContain('nadie-aqui@corto.test');
  });

  it('mails a Spanish text and HTML link that sets a new password once and ends every session', async () => {
    const second = sessionCookie(await login(me.password));
    await ask(me.user.email);
    const mail = await nextReset();
    expect(mail.subject).toBe('Restablece tu contraseña de Corto');
    expect(mail.from?.text).toContain('no-reply@corto.example');
    expect(mail.text).toContain('Hola, Ana Olvido:');
    expect(mail.text).toContain('30 minutos');
    const token = linkOf(mail, base).searchParams.get('token')!;
    // Only the hash is stored.
    const rows = await t.database.db.selectFrom('password_resets').select('token_hash').execute();
    expect(rows.map((row) => row.token_hash)).not.toContain(token);

    const done = await confirm(token, 'recuperada-456');
    expect(done.statusCode).toBe(204);
    for (const cookie of [me.cookie, second]) {
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } })).json()).toEqual({ user: null });
    }
    expect((await login(me.password)).statusCode).toBe(401);
    expect((await login('recuperada-456')).statusCode).toBe(200);

    const again = await confirm(token, 'otra-vez-789');
    expect(again.statusCode).toBe(400);
    expect(again.json().error.fields.token).toEqual([a.resetTokenInvalid]);
    expect((await login('recuperada-456')).statusCode).toBe(200);
  });

  it('refuses an expired or forged token and a bad new password, changing nothing', async () => {
    await ask(me.user.email);
    const token = linkOf(await nextReset(), base).searchParams.get('token')!;
    const weak = await confirm(token, '123');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.fields.password).toEqual([m.passwordMin]);
    expect((await confirm('', 'buena-clave-123')).json().error.fields.token).toEqual([a.resetTokenRequired]);
    const forged = await confirm(`${token.slice(0, -2)}xx`, 'buena-clave-123');
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.message).toBe(a.resetTokenInvalid);

    // Thirty minutes later.
    await t.database.db.updateTable('password_resets').set({ expires_at: Date.now() - 1 }).execute();
    const expired = await confirm(token, 'buena-clave-123');
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error.fields.token).toEqual([a.resetTokenInvalid]);
    expect((await login(me.password)).statusCode).toBe(200);
  });

  it('a link stops working once the e-mail or the password of the account changed, whichever way', async () => {
    const signedIn = { cookie: me.cookie, ...sameOrigin };
    const refused = async (token: string) => {
      const response = await confirm(token, 'secuestrada-000');
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields.token).toEqual([a.resetTokenInvalid]);
    };
    // The e-mail changed on the account page: the link mailed to the old address is dead.
    await ask(me.user.email);
    const mailed = linkOf(await nextReset(), base).searchParams.get('token')!;
    const operators = new URL(await createResetLink(t.database.db, t.config, me.user.id)).searchParams.get('token')!;
    const newEmail = `nueva-${Date.now()}@corto.test`;
    const moved = await t.app.inject({ method: 'POST', url: '/api/account/email', headers: signedIn, payload: { email: newEmail, password: me.password } });
    expect(moved.statusCode).toBe(202);
    // The change is made when the new address's link is used.
    const changeMail = await smtp.nextWhere((mail) => (mail.to && 'text' in mail.to ? mail.to.text : '') === newEmail);
    const changeToken = new URL(changeMail.text!.match(/https?:\/\/\S+\/auth\/verificar\?token=[\w-]+/)![0]).searchParams.get('token')!;
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/email-verification/confirm', payload: { token: changeToken } })).statusCode).toBe(200);
    await refused(mailed);
    await refused(operators);

    // The password changed on the account page.
    const beforeChange = new URL(await createResetLink(t.database.db, t.config, me.user.id)).searchParams.get('token')!;
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: signedIn,
      payload: { currentPassword: me.password, newPassword: 'cambiada-789' },
    });
    expect(changed.statusCode).toBe(204);
    await refused(beforeChange);

    // The password changed by another link (the operator's `reset-link`): the others are dead.
    const first = new URL(await createResetLink(t.database.db, t.config, me.user.id)).searchParams.get('token')!;
    const second = new URL(await createResetLink(t.database.db, t.config, me.user.id)).searchParams.get('token')!;
    expect((await confirm(second, 'recuperada-456')).statusCode).toBe(204);
    await refused(first);

    // Nothing of the refused links took: the last password set stands.
    const relogin = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: newEmail, password: 'recuperada-456' } });
    expect(relogin.statusCode).toBe(200);
  });

  it('refuses a malformed address with its message', async () => {
    for (const [email, message] of [['', m.registerEmailRequired], ['sin-arroba', m.registerEmailInvalid], [42, m.registerEmailRequired]] as const) {
      const response = await ask(email);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields.email).toEqual([message]);
    }
  });
});

describe.each(testDialects)('password recovery without SMTP_URL on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp(dialect)));
  afterAll(async () => t.close());

  it('is not offered, and a request says so in Spanish', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/password-reset' })).json()).toEqual({ available: false });
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email: 'alguien@corto.test' } });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe(a.resetUnavailable);
  });
});
