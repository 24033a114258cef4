import { accountMessages as a, emailChangeTaken } from '@common/account/account-messages';
import type { User } from '@common/auth/auth-schemas';
import type { ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../admin/admin-test-support';
import { startSmtpCapture, type SmtpCapture } from '../test/smtp-capture';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { findAccountByConfirmedEmail, isConfirmedEmail } from './confirmed-email';

// Proved addresses: sign-up mails the link; a change of address waits for the new one to be
// proved (the old one keeps signing in and is told); the link makes the move, verified.

const base = 'https://corto.example';
let smtp: SmtpCapture;
beforeAll(async () => (smtp = await startSmtpCapture()));
afterAll(async () => smtp.close());

const recipientOf = (mail: ParsedMail) => (mail.to && 'text' in mail.to ? mail.to.text : '');
/** The next mail to `to`, checked to carry the same confirmation link in its text and HTML; its token. */
async function linkTo(to: string): Promise<{ mail: ParsedMail; token: string }> {
  const mail = await smtp.nextWhere((m) => recipientOf(m) === to);
  const found = mail.text?.match(/https?:\/\/\S+\/auth\/verificar\?token=[\w-]+/);
  if (!found) throw new Error(`no confirmation link in: ${mail.text}`);
  expect(found[0].startsWith(`${base}/auth/verificar?token=`)).toBe(true);
  expect(mail.html).toContain(`href="${found[0]}"`);
  return { mail, token: new URL(found[0]).searchParams.get('token')! };
}

describe.each(testDialects)('proved e-mail addresses with SMTP_URL on %s', (dialect) => {
  let t: TestApp;
  let me: { user: User; cookie: string; password: string };
  beforeEach(async () => {
    t = await createTestApp(dialect, { SMTP_URL: smtp.url, MAIL_FROM: 'Corto <no-reply@corto.example>', PUBLIC_BASE_URL: base, AUTH_RATE_LIMIT_IP: '0' });
    me = await registerUser(t.app, { name: 'Ana Cambio' });
  });
  afterEach(async () => t.close());

  const status = async (cookie = me.cookie) => (await call(t.app, cookie, 'GET', '/api/account/email/verification')).json();
  const change = (email: string, password = me.password) => call(t.app, me.cookie, 'POST', '/api/account/email', { email, password });
  const confirm = (token: string) => t.app.inject({ method: 'POST', url: '/api/auth/email-verification/confirm', payload: { token } });
  const login = (email: string) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: me.password } });
  const sessionEmail = async () => (await call(t.app, me.cookie, 'GET', '/api/auth/session')).json().user.email;

  it('mails a Spanish confirmation link at sign-up, valid 24 hours and once; the page then offers to resend it', async () => {
    const { mail, token } = await linkTo(me.user.email);
    expect(mail.subject).toBe('Verifica tu email en Corto');
    expect(mail.text).toContain('Hola, Ana Cambio:');
    expect(mail.text).toContain('en las próximas 24 horas');
    const row = await t.database.db.selectFrom('email_verifications').selectAll().where('user_id', '=', me.user.id).executeTakeFirstOrThrow();
    expect(row.token_hash).not.toBe(token);
    expect(Number(row.expires_at) - Number(row.created_at)).toBe(24 * 60 * 60 * 1000);
    expect(await status()).toEqual({ verified: false, available: true, linkSent: true, pendingEmail: null });
    expect(await isConfirmedEmail(t.database.db, me.user.id)).toBe(false);
    expect(await findAccountByConfirmedEmail(t.database.db, me.user.email)).toBeUndefined();
    // The sign-up's link counts as the minute's mail.
    const soon = await call(t.app, me.cookie, 'POST', '/api/account/email/verification');
    expect(soon.statusCode).toBe(429);

    expect((await confirm(token)).json().message).toBe(`Email verificado: ${me.user.email}.`);
    expect(await status()).toEqual({ verified: true, available: true, linkSent: false, pendingEmail: null });
    expect((await confirm(token)).statusCode).toBe(400);
    expect(await isConfirmedEmail(t.database.db, me.user.id)).toBe(true);
    expect(await findAccountByConfirmedEmail(t.database.db, me.user.email.toUpperCase())).toMatchObject({ id: me.user.id });
  });

  it('keeps the old address until the new one is proved, tells the old one, then moves the account there, verified', async () => {
    const signUp = await linkTo(me.user.email);
    await confirm(signUp.token);
    const old = me.user.email;
    const next = `nueva-${dialect}-${Date.now()}@corto.test`;

    const asked = await change(next.toUpperCase());
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toMatchObject({ user: { email: old }, pendingEmail: next });
    expect(asked.json().message).toContain(next);
    const { mail, token } = await linkTo(next);
    expect(mail.subject).toBe('Confirma tu nuevo email en Corto');
    expect(mail.text).toContain(`de ${old} a esta dirección`);
    const notice = await smtp.nextWhere((m) => recipientOf(m) === old);
    expect(notice.subject).toBe('Se ha pedido cambiar el email de tu cuenta de Corto');
    expect(notice.text).toContain(next);
    expect(notice.text).not.toContain('token=');
    expect(notice.text).toContain(`${base}/cuenta`);

    // Nothing changed yet: the old address signs in and is shown, still verified.
    expect(await sessionEmail()).toBe(old);
    expect((await login(old)).statusCode).toBe(200);
    expect((await login(next)).statusCode).toBe(401);
    expect(await status()).toEqual({ verified: true, available: true, linkSent: false, pendingEmail: next });

    const done = await confirm(token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().message).toBe(`Email cambiado: tu cuenta ahora usa ${next}, ya verificado.`);
    expect(await sessionEmail()).toBe(next);
    expect((await login(next)).statusCode).toBe(200);
    expect((await login(old)).statusCode).toBe(401);
    expect(await status()).toEqual({ verified: true, available: true, linkSent: false, pendingEmail: null });
    expect(await findAccountByConfirmedEmail(t.database.db, next)).toMatchObject({ id: me.user.id });
    expect(await findAccountByConfirmedEmail(t.database.db, old)).toBeUndefined();
    expect((await confirm(token)).statusCode).toBe(400);
  });

  it('refuses the move in Spanish (409) when another account took the new address meanwhile, and keeps the old one', async () => {
    const next = `disputada-${dialect}-${Date.now()}@corto.test`;
    expect((await change(next)).statusCode).toBe(202);
    const { token } = await linkTo(next);
    await registerUser(t.app, { email: next });
    const refused = await confirm(token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(emailChangeTaken(next, me.user.email));
    expect(await sessionEmail()).toBe(me.user.email);
    expect((await login(me.user.email)).statusCode).toBe(200);
  });

  it('resends the link to the new address, cancels the change, and a new request replaces one waiting', async () => {
    const first = `primera-${dialect}-${Date.now()}@corto.test`;
    const second = `segunda-${dialect}-${Date.now()}@corto.test`;
    expect((await change(first)).statusCode).toBe(202);
    const firstLink = await linkTo(first);
    const soon = await call(t.app, me.cookie, 'POST', '/api/account/email/pending/resend');
    expect(soon.statusCode).toBe(429);
    expect(soon.json().error.message).toBe(a.emailChangeWait);
    // A minute later (the link's record says so) another goes, to the new address only.
    await t.database.db.updateTable('email_verifications').set({ created_at: Date.now() - 61_000 }).where('email', '=', first).execute();
    const again = await call(t.app, me.cookie, 'POST', '/api/account/email/pending/resend');
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json().message).toContain(first);
    await linkTo(first);

    expect((await change(second)).statusCode).toBe(202);
    const secondLink = await linkTo(second);
    expect((await status()).pendingEmail).toBe(second);
    // The first change is gone: its link does nothing.
    expect((await confirm(firstLink.token)).statusCode).toBe(400);

    expect((await call(t.app, me.cookie, 'DELETE', '/api/account/email/pending')).statusCode).toBe(204);
    expect((await status()).pendingEmail).toBeNull();
    expect((await confirm(secondLink.token)).statusCode).toBe(400);
    expect(await sessionEmail()).toBe(me.user.email);
    const none = await call(t.app, me.cookie, 'DELETE', '/api/account/email/pending');
    expect(none.statusCode).toBe(404);
    expect(none.json().error.message).toBe(a.emailChangeNone);
    expect((await call(t.app, me.cookie, 'POST', '/api/account/email/pending/resend')).statusCode).toBe(404);
  });

  it('keeps a change waiting when the current address is verified meanwhile', async () => {
    const signUp = await linkTo(me.user.email);
    const next = `espera-${dialect}-${Date.now()}@corto.test`;
    expect((await change(next)).statusCode).toBe(202);
    const { token } = await linkTo(next);
    expect((await confirm(signUp.token)).statusCode).toBe(200);
    expect(await status()).toEqual({ verified: true, available: true, linkSent: false, pendingEmail: next });
    expect((await confirm(token)).statusCode).toBe(200);
    expect(await sessionEmail()).toBe(next);
  });
});

describe.each(testDialects)('changing the address without SMTP_URL on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '0' })));
  afterAll(async () => t.close());

  it('changes it at once, unconfirmed, as nothing can be proved', async () => {
    const me = await registerUser(t.app);
    const next = `directa-${dialect}-${Date.now()}@corto.test`;
    const changed = await call(t.app, me.cookie, 'POST', '/api/account/email', { email: next, password: me.password });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ user: expect.objectContaining({ email: next }) });
    expect((await call(t.app, me.cookie, 'GET', '/api/account/email/verification')).json()).toEqual({
      verified: false,
      available: false,
      linkSent: false,
      pendingEmail: null,
    });
    expect(await findAccountByConfirmedEmail(t.database.db, next)).toBeUndefined();
  });
});
