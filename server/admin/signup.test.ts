import { adminMessages as m } from '@common/admin/admin-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { makeImage, multipart } from '../test/test-users';
import { call, registerAdmin } from './admin-test-support';

describe.each(testDialects)('sign-up control on %s', (dialect) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof registerAdmin>>;
  beforeAll(async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '0', AUTH_RATE_LIMIT_EMAIL: '0' });
    admin = await registerAdmin(t);
  });
  afterAll(() => t.close());

  let n = 0;
  const register = async (fields: { email?: string; invite?: string } = {}) => {
    n += 1;
    const body = await multipart({
      name: 'Nueva',
      email: fields.email ?? `nueva-${n}-${Date.now()}@corto.test`,
      password: 'otra-clave-123',
      invite: fields.invite,
      profileImage: { bytes: await makeImage(), filename: 'a.png', type: 'image/png' },
    });
    return t.app.inject({ method: 'POST', url: '/api/auth/register', ...body });
  };
  const setSignup = (signup: string) => call(t.app, admin.cookie, 'PUT', '/api/admin/settings', { signup, blockedDomains: [] });
  const invite = async (email?: string) =>
    (await call(t.app, admin.cookie, 'POST', '/api/admin/invites', email ? { email } : {})).json().invite as { code: string; url: string };

  it('closed: register answers 403 "El registro está cerrado", and the public status says closed', async () => {
    expect((await setSignup('closed')).json().signup).toBe('closed');
    const refused = await register();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(m.signupClosed);
    expect((await t.app.inject({ method: 'GET', url: '/api/signup' })).json()).toEqual({ signup: 'closed' });
  });

  it('invite: register needs an unused, unexpired invitation, for its e-mail when bound', async () => {
    await setSignup('invite');
    const missing = await register();
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields.invite).toEqual([m.inviteRequired]);

    const open = await invite();
    expect(open.url).toContain(`invite=${open.code}`);
    expect((await register({ invite: open.code })).statusCode).toBe(201);
    const reused = await register({ invite: open.code });
    expect(reused.json().error.fields.invite).toEqual([m.inviteInvalid]);
    const spent = (await t.app.inject({ method: 'GET', url: `/api/signup?invite=${encodeURIComponent(open.code)}` })).json();
    expect(spent).toEqual({ signup: 'invite', invite: { valid: false, email: null, expiresAt: null } });

    const bound = await invite('Solo@Corto.test');
    // The register form learns what the link is before it is sent: usable, and for which address.
    const described = (await t.app.inject({ method: 'GET', url: `/api/signup?invite=${encodeURIComponent(bound.code)}` })).json();
    expect(described).toMatchObject({ signup: 'invite', invite: { valid: true, email: 'solo@corto.test' } });
    // A wrong address is told which one the invitation is for.
    expect((await register({ invite: bound.code })).json().error.fields.invite).toEqual([m.inviteOtherEmail('solo@corto.test')]);
    expect((await register({ invite: bound.code, email: 'solo@corto.test' })).statusCode).toBe(201);

    const old = await invite();
    await t.database.db.updateTable('invites').set({ expires_at: Date.now() - 1 }).where('used_at', 'is', null).execute();
    expect((await register({ invite: old.code })).json().error.fields.invite).toEqual([m.inviteInvalid]);

    const { entries } = (await call(t.app, admin.cookie, 'GET', '/api/admin/audit')).json();
    expect(entries.some((e: { action: string; target: string }) => e.action === 'invite.create' && e.target === 'solo@corto.test')).toBe(true);
    await setSignup('open');
    expect((await register()).statusCode).toBe(201);
  });
});

describe('SIGNUP in the environment', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { SIGNUP: 'closed', ADMIN_EMAILS: 'env-admin@corto.test' });
  });
  afterAll(() => t.close());

  it('wins over the stored setting, and the settings say so', async () => {
    // The first account cannot sign up either: the operator opens it with the environment or the CLI.
    await t.database.db
      .insertInto('users')
      .values({ email: 'env-admin@corto.test', name: 'A', password_hash: 'x', profile_image: 'x', created_at: Date.now(), disabled_at: null, role: 'admin' })
      .execute();
    const settings = await t.app.inject({ method: 'GET', url: '/api/signup' });
    expect(settings.json()).toEqual({ signup: 'closed' });
    await t.database.db.insertInto('settings').values({ key: 'signup', value: 'open' }).execute();
    expect((await t.app.inject({ method: 'GET', url: '/api/signup' })).json()).toEqual({ signup: 'closed' });
  });
});
