import { adminMessages } from '@common/admin/admin-messages';
import { workspaceMessages as m } from '@common/workspaces/workspace-messages';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../admin/admin-test-support';
import { storeSignupMode } from '../admin/signup-policy';
import { startSmtpCapture, type SmtpCapture } from '../test/smtp-capture';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { makeImage, multipart, sessionCookie } from '../test/test-users';
import { person, team } from './workspaces.test-support';

const base = 'https://corto.example';
let smtp: SmtpCapture;
beforeAll(async () => (smtp = await startSmtpCapture()));
afterAll(async () => smtp.close());

/** The secret at the end of an invitation's address. */
const secretOf = (url: string) => {
  const match = new RegExp(`^${base}/invitacion/([A-Za-z0-9_-]{43})$`).exec(url);
  if (!match) throw new Error(`not an invitation link: ${url}`);
  return match[1]!;
};

const recipientOf = (mail: ParsedMail) => (mail.to && 'text' in mail.to ? mail.to.text : '');
/** The next invitation mailed (sign-ups' confirmation links arrive in between). */
const nextInvite = () => smtp.nextWhere((mail) => /te invita a/.test(mail.subject ?? ''));
/** The token of the confirmation link a sign-up mailed to `email`. */
async function signUpLink(email: string) {
  const mail = await smtp.nextWhere((m) => recipientOf(m) === email && /verificar\?token=/.test(m.text ?? ''));
  return new URL(mail.text!.match(/https?:\/\/\S+\/auth\/verificar\?token=[\w-]+/)![0]).searchParams.get('token')!;
}
/** Confirms `email` by the link its sign-up mailed there (`token` when already taken from the capture). */
async function confirmAddress(t: TestApp, email: string, token?: string) {
  token ??= await signUpLink(email);
  const confirmed = await t.app.inject({ method: 'POST', url: '/api/auth/email-verification/confirm', payload: { token } });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
}

async function signUp(t: TestApp, fields: Record<string, string>) {
  const body = await multipart({ name: 'Nueva', password: 'secreto-largo-1', ...fields, profileImage: { bytes: await makeImage(), filename: 'a.png', type: 'image/png' } });
  return t.app.inject({ method: 'POST', url: '/api/auth/register', ...body });
}

describe.each(testDialects)('workspace invitations on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Corto <no-reply@corto.example>',
      PUBLIC_BASE_URL: base,
      AUTH_RATE_LIMIT_IP: '0',
      AUTH_RATE_LIMIT_EMAIL: '0',
    });
  });
  afterAll(async () => t?.close());

  const invite = (cookie: string, slug: string, email: string, role = 'editor') => call(t.app, cookie, 'POST', `/api/workspaces/${slug}/invites`, { email, role });

  it('mails the invitation, naming the workspace and who invites; its addressee sees it and accepts it once', async () => {
    const { workspace, admin } = await team(t, `Equipo Coral ${dialect}`);
    const guest = await person(t.app, 'Invitada Coral', `coral-${dialect}@corto.test`);
    const guestLink = await signUpLink(guest.email);
    const made = await invite(admin.cookie, workspace.slug, `Coral-${dialect}@Corto.test`, 'editor');
    expect(made.statusCode, made.body).toBe(201);
    const created = made.json();
    expect(created.mailed).toBe(true);
    expect(created.invite).toMatchObject({ email: `coral-${dialect}@corto.test`, role: 'editor' });
    const days = (new Date(created.invite.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const secret = secretOf(created.invite.url);
    // Only its hash is stored.
    const stored = await t.database.db.selectFrom('workspace_invites').selectAll().where('id', '=', created.invite.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(secret);

    const mail = await nextInvite();
    expect(mail.subject).toBe(`${admin.name} te invita a «${workspace.name}» en Corto`);
    expect(mail.text).toContain(created.invite.url);
    expect(mail.text).toContain(`«${workspace.name}»`);
    expect(mail.text).toContain('editor');
    expect(mail.html).toContain(`href="${created.invite.url}"`);
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe(`coral-${dialect}@corto.test`);

    const preview = await t.app.inject({ method: 'GET', url: `/api/invites/${secret}` });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({
      workspace: { name: workspace.name, slug: workspace.slug },
      email: `coral-${dialect}@corto.test`,
      role: 'editor',
      invitedBy: admin.name,
      expiresAt: created.invite.expiresAt,
    });

    const pending = await call(t.app, admin.cookie, 'GET', `/api/workspaces/${workspace.slug}/invites`);
    expect(pending.json().invites.map((i: { id: number; url?: string }) => [i.id, i.url])).toEqual([[created.invite.id, undefined]]);

    const anonymous = await t.app.inject({ method: 'POST', url: `/api/invites/${secret}/accept` });
    expect(anonymous.statusCode).toBe(401);
    // The address is the invitation's but nobody proved it yet: refused, saying what to do.
    const unconfirmed = await call(t.app, guest.cookie, 'POST', `/api/invites/${secret}/accept`);
    expect(unconfirmed.statusCode).toBe(403);
    expect(unconfirmed.json().error.message).toBe(m.inviteConfirmEmail);
    expect((await t.app.inject({ method: 'GET', url: `/api/invites/${secret}` })).statusCode).toBe(200);
    await confirmAddress(t, guest.email, guestLink);
    const accepted = await call(t.app, guest.cookie, 'POST', `/api/invites/${secret}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().workspace).toEqual({ id: workspace.id, slug: workspace.slug, name: workspace.name, personal: false, role: 'editor' });
    const members = (await call(t.app, guest.cookie, 'GET', `/api/workspaces/${workspace.slug}/members`)).json().members;
    expect(members.find((member: { user: { id: number } }) => member.user.id === guest.id)?.role).toBe('editor');

    const twice = await call(t.app, guest.cookie, 'POST', `/api/invites/${secret}/accept`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe(m.inviteUsed);
    expect((await t.app.inject({ method: 'GET', url: `/api/invites/${secret}` })).statusCode).toBe(409);
    expect((await call(t.app, admin.cookie, 'GET', `/api/workspaces/${workspace.slug}/invites`)).json().invites).toEqual([]);

    const entries = (await call(t.app, guest.cookie, 'GET', `/api/workspaces/${workspace.slug}/activity`)).json().entries;
    expect(entries.slice(0, 2)).toMatchObject([
      { action: 'member.joined', actor: { id: guest.id }, target: guest.name, detail: 'editor' },
      { action: 'invite.created', actor: { id: admin.id }, target: `coral-${dialect}@corto.test`, detail: 'editor' },
    ]);
  });

  it('refuses another address, a revoked invitation and an expired one', async () => {
    const { workspace, owner, viewer } = await team(t);
    const intruder = await person(t.app);
    const made = (await invite(owner.cookie, workspace.slug, `ambar-${dialect}@corto.test`, 'viewer')).json();
    await nextInvite();
    const secret = secretOf(made.invite.url);
    const other = await call(t.app, intruder.cookie, 'POST', `/api/invites/${secret}/accept`);
    expect(other.statusCode).toBe(403);
    expect(other.json().error.message).toBe(m.inviteOtherEmail);

    expect((await call(t.app, viewer.cookie, 'DELETE', `/api/workspaces/${workspace.slug}/invites/${made.invite.id}`)).statusCode).toBe(403);
    const revoked = await call(t.app, owner.cookie, 'DELETE', `/api/workspaces/${workspace.slug}/invites/${made.invite.id}`);
    expect(revoked.statusCode).toBe(204);
    const addressee = await person(t.app, 'Ámbar', `ambar-${dialect}@corto.test`);
    const afterRevoke = await call(t.app, addressee.cookie, 'POST', `/api/invites/${secret}/accept`);
    expect(afterRevoke.statusCode).toBe(404);
    expect(afterRevoke.json().error.message).toBe(m.inviteNotFound);
    expect((await t.app.inject({ method: 'GET', url: `/api/invites/${secret}` })).statusCode).toBe(404);
    expect((await call(t.app, owner.cookie, 'DELETE', `/api/workspaces/${workspace.slug}/invites/${made.invite.id}`)).statusCode).toBe(404);

    const again = (await invite(owner.cookie, workspace.slug, `ambar-${dialect}@corto.test`, 'viewer')).json();
    await nextInvite();
    await t.database.db.updateTable('workspace_invites').set({ expires_at: Date.now() - 1 }).where('id', '=', again.invite.id).execute();
    const expired = await call(t.app, addressee.cookie, 'POST', `/api/invites/${secretOf(again.invite.url)}/accept`);
    expect(expired.statusCode).toBe(404);
    expect(expired.json().error.message).toBe(m.inviteNotFound);
    expect((await t.app.inject({ method: 'GET', url: '/api/invites/inventada' })).statusCode).toBe(404);

    const entries = (await call(t.app, owner.cookie, 'GET', `/api/workspaces/${workspace.slug}/activity`)).json().entries;
    expect(entries.map((entry: { action: string }) => entry.action)).toContain('invite.revoked');
  });

  it('refuses to invite a member, a second pending invitation, and anyone into a personal workspace', async () => {
    const { workspace, owner, editor } = await team(t);
    const member = await invite(owner.cookie, workspace.slug, editor.email.toUpperCase());
    expect(member.statusCode).toBe(409);
    expect(member.json().error.message).toBe(m.alreadyMember);
    expect((await invite(owner.cookie, workspace.slug, `dos-${dialect}@corto.test`)).statusCode).toBe(201);
    await nextInvite();
    const pending = await invite(owner.cookie, workspace.slug, `dos-${dialect}@corto.test`);
    expect(pending.statusCode).toBe(409);
    expect(pending.json().error.message).toBe(m.invitePending);
    const bad = await invite(owner.cookie, workspace.slug, 'no-es-un-email');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.email).toEqual([m.emailInvalid]);
    const [personal] = (await call(t.app, owner.cookie, 'GET', '/api/workspaces')).json().workspaces;
    const mine = await invite(owner.cookie, personal.slug, `tres-${dialect}@corto.test`);
    expect(mine.statusCode).toBe(409);
    expect(mine.json().error.message).toBe(m.personalNoMembers);
  });

  it('lets an invitation\'s addressee sign up when sign-up is by invitation only, and joins them once their address is confirmed', async () => {
    const { workspace, owner } = await team(t);
    const email = `registro-${dialect}@corto.test`;
    const made = (await invite(owner.cookie, workspace.slug, email, 'viewer')).json();
    await nextInvite();
    const secret = secretOf(made.invite.url);
    await storeSignupMode(t.database.db, 'invite');
    try {
      const without = await signUp(t, { email });
      expect(without.statusCode).toBe(400);
      expect(without.json().error.fields.invite).toEqual([adminMessages.inviteRequired]);
      const otherAddress = await signUp(t, { email: `otra-${dialect}@corto.test`, workspaceInvite: secret });
      expect(otherAddress.statusCode).toBe(400);
      expect(otherAddress.json().error.fields.workspaceInvite).toEqual([m.inviteOtherEmail]);

      const signedUp = await signUp(t, { email, workspaceInvite: secret });
      expect(signedUp.statusCode, signedUp.body).toBe(201);
      const cookie = sessionCookie(signedUp);
      // Signed up, but not joined until the address is proved: a leaked link is no use to a stranger.
      expect((await call(t.app, cookie, 'GET', '/api/workspaces')).json().workspaces).toHaveLength(1);
      expect((await call(t.app, cookie, 'POST', `/api/invites/${secret}/accept`)).json().error.message).toBe(m.inviteConfirmEmail);
      await confirmAddress(t, email);
      expect((await call(t.app, cookie, 'POST', `/api/invites/${secret}/accept`)).statusCode).toBe(200);
      const list = (await call(t.app, cookie, 'GET', '/api/workspaces')).json().workspaces;
      expect(list.map((w: { slug: string; role: string; personal: boolean }) => [w.personal, w.role])).toEqual([
        [true, 'owner'],
        [false, 'viewer'],
      ]);
      expect(list[1].id).toBe(workspace.id);

      const reused = await signUp(t, { email: `tarde-${dialect}@corto.test`, workspaceInvite: secret });
      expect(reused.statusCode).toBe(400);
      expect(reused.json().error.fields.workspaceInvite).toEqual([m.inviteUsed]);
    } finally {
      await storeSignupMode(t.database.db, 'open');
    }
  });
});

describe.each(testDialects)('workspace invitations without SMTP_URL on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { PUBLIC_BASE_URL: base });
  });
  afterAll(async () => t?.close());

  it('answers the link to copy, not mailed', async () => {
    const { workspace, owner } = await team(t);
    const made = await call(t.app, owner.cookie, 'POST', `/api/workspaces/${workspace.slug}/invites`, { email: 'copia@corto.test', role: 'owner' });
    expect(made.statusCode).toBe(201);
    expect(made.json().mailed).toBe(false);
    expect(secretOf(made.json().invite.url)).toHaveLength(43);
  });

  it('lets the address alone decide, as no address can be confirmed without mail', async () => {
    const { workspace, owner } = await team(t);
    const guest = await person(t.app, 'Sin correo', `sin-correo-${dialect}@corto.test`);
    const made = (await call(t.app, owner.cookie, 'POST', `/api/workspaces/${workspace.slug}/invites`, { email: guest.email, role: 'viewer' })).json();
    const accepted = await call(t.app, guest.cookie, 'POST', `/api/invites/${secretOf(made.invite.url)}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const signedUpEmail = `sin-correo-nueva-${dialect}@corto.test`;
    const other = (await call(t.app, owner.cookie, 'POST', `/api/workspaces/${workspace.slug}/invites`, { email: signedUpEmail, role: 'viewer' })).json();
    const signedUp = await signUp(t, { email: signedUpEmail, workspaceInvite: secretOf(other.invite.url) });
    expect(signedUp.statusCode, signedUp.body).toBe(201);
    expect((await call(t.app, sessionCookie(signedUp), 'GET', '/api/workspaces')).json().workspaces).toHaveLength(2);
  });
});
