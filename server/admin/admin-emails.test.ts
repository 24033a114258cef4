import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { accountMessages as a } from '@common/account/account-messages';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import type { DatabaseHandle } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { startSmtpCapture, type SmtpCapture } from '../test/smtp-capture';
import { openTestDatabase, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { call, registerAdmin } from './admin-test-support';

// ADMIN_EMAILS grants admin only to a proved (verified) address, once per account and address,
// and a demotion made in the app stands across restarts.

let smtp: SmtpCapture;
beforeAll(async () => (smtp = await startSmtpCapture()));
afterAll(async () => smtp.close());

const BOSS = 'jefa@corto.test';
const OTHER_BOSS = 'subjefa@corto.test';

/** An install that can be restarted: a new app (as a new `npm start`) over the same database. */
interface Install {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  restart(): Promise<void>;
  close(): Promise<void>;
}

async function openInstall(dialect: 'sqlite' | 'postgres', env: Record<string, string>): Promise<Install> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'corto-admin-emails-'));
  const { database, drop } = await openTestDatabase(dialect, dataDir);
  await migrateToLatest(database.db);
  const config: Config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', AUTH_RATE_LIMIT_IP: '0', API_DEADLINE_MS: '0', ...env }), webDir: undefined };
  const install: Install = {
    app: await buildApp({ config, database }),
    database,
    config,
    async restart() {
      await install.app.close();
      install.app = await buildApp({ config, database });
    },
    async close() {
      await install.app.close();
      await database.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return install;
}

/** The token of the verification link in the next message to `to` (sign-up mails one). */
async function mailedToken(to: string): Promise<string> {
  const mail = await smtp.nextWhere((m) => (m.to && 'text' in m.to ? m.to.text : '') === to && /verificar\?token=/.test(m.text ?? ''));
  const found = mail.text?.match(/https?:\/\/\S+\/auth\/verificar\?token=[\w-]+/);
  if (!found) throw new Error(`no verification link in: ${mail.text}`);
  expect(mail.html).toContain(`href="${found[0]}"`);
  return new URL(found[0]).searchParams.get('token')!;
}

describe.each(testDialects)('ADMIN_EMAILS and verified addresses on %s', (dialect) => {
  let t: Install;
  beforeEach(async () => {
    t = await openInstall(dialect, { ADMIN_EMAILS: `Jefa@Corto.test, ${OTHER_BOSS}`, SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'https://corto.example' });
  });
  afterEach(async () => t.close());

  const roleOf = async (id: number) => (await t.database.db.selectFrom('users').select('role').where('id', '=', id).executeTakeFirstOrThrow()).role;
  const askLink = (cookie: string) => call(t.app, cookie, 'POST', '/api/account/email/verification');
  const confirm = (token: string) => t.app.inject({ method: 'POST', url: '/api/auth/email-verification/confirm', payload: { token } });
  const status = async (cookie: string) => (await call(t.app, cookie, 'GET', '/api/account/email/verification')).json();

  it('does not make an admin of whoever signs up first with a listed address nobody proved, at sign-up or at a restart', async () => {
    const squatter = await registerUser(t.app, { email: BOSS.toUpperCase() });
    expect(squatter.user.role).toBe('user');
    expect(await status(squatter.cookie)).toMatchObject({ verified: false, available: true });
    await t.restart();
    expect(await roleOf(squatter.user.id)).toBe('user');
    expect((await call(t.app, squatter.cookie, 'GET', '/api/admin/users')).statusCode).toBe(403);
  });

  it('makes the account an admin as soon as it confirms the link mailed to its listed address, once', async () => {
    const boss = await registerUser(t.app, { email: BOSS, name: 'Ana Jefa' });
    // Sign-up mailed the link.
    const token = await mailedToken(BOSS);
    // Only the hash is stored.
    const rows = await t.database.db.selectFrom('email_verifications').select('token_hash').execute();
    expect(rows.map((row) => row.token_hash)).not.toContain(token);

    const done = await confirm(token);
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toBe(`Email verificado: ${BOSS}. Tu cuenta ahora es de administrador.`);
    expect(await roleOf(boss.user.id)).toBe('admin');
    const screen = await call(t.app, boss.cookie, 'GET', '/api/admin/users');
    expect(screen.statusCode, screen.body).toBe(200);
    expect(await status(boss.cookie)).toMatchObject({ verified: true, available: true });

    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.fields.token).toEqual([a.verifyTokenInvalid]);
    const more = await askLink(boss.cookie);
    expect(more.statusCode).toBe(409);
    expect(more.json().error.message).toBe(a.verifyAlready);
    // The audit log names who granted it.
    const { entries } = (await call(t.app, boss.cookie, 'GET', '/api/admin/audit')).json();
    expect(entries[0]).toMatchObject({ admin: 'ADMIN_EMAILS (email verificado)', action: 'user.role', target: BOSS, detail: 'admin' });
  });

  it('verifies an unlisted address without making an admin, and waits a minute before another mail', async () => {
    const user = await registerUser(t.app);
    // Sign-up mailed the minute's link.
    const soon = await askLink(user.cookie);
    expect(soon.statusCode).toBe(429);
    expect(soon.json().error.message).toBe(a.verifyWait);
    const done = await confirm(await mailedToken(user.user.email));
    expect(done.json().message).toBe(`Email verificado: ${user.user.email}.`);
    expect(await roleOf(user.user.id)).toBe('user');
  });

  it('does not make an admin of an account asking to move to a listed address until the new address is proved', async () => {
    const verified = await registerUser(t.app);
    expect((await confirm(await mailedToken(verified.user.email))).statusCode).toBe(200);

    const moved = await call(t.app, verified.cookie, 'POST', '/api/account/email', { email: BOSS, password: verified.password });
    expect(moved.statusCode).toBe(202);
    // The change waits for the new address's link: the account keeps its verified old address.
    expect(await status(verified.cookie)).toMatchObject({ verified: true, pendingEmail: BOSS });
    const linkToBoss = await mailedToken(BOSS);
    await t.restart();
    expect(await roleOf(verified.user.id)).toBe('user');
    // The link proves the listed address: the move is made, and ADMIN_EMAILS grants.
    const done = await confirm(linkToBoss);
    expect(done.json().message).toBe(`Email cambiado: tu cuenta ahora usa ${BOSS}, ya verificado. Tu cuenta ahora es de administrador.`);
    expect(await roleOf(verified.user.id)).toBe('admin');
  });

  it('keeps an admin demoted in the app demoted across restarts, and a verified listed address grants again nothing', async () => {
    const admin = await registerAdmin(t);
    const boss = await registerUser(t.app, { email: BOSS });
    await confirm(await mailedToken(BOSS));
    expect(await roleOf(boss.user.id)).toBe('admin');

    const demoted = await call(t.app, admin.cookie, 'PATCH', `/api/admin/users/${boss.user.id}`, { role: 'user' });
    expect(demoted.statusCode).toBe(200);
    await t.restart();
    expect(await roleOf(boss.user.id)).toBe('user');
    await t.restart();
    expect(await roleOf(boss.user.id)).toBe('user');
    const { entries } = (await call(t.app, admin.cookie, 'GET', '/api/admin/audit')).json();
    expect(entries[0]).toMatchObject({ admin: admin.user.email, action: 'user.role', target: BOSS, detail: 'user' });
  });

  it('keeps the demotion of an account the shell made admin, whose listed address is verified', async () => {
    const admin = await registerAdmin(t);
    const boss = await registerUser(t.app, { email: BOSS });
    // Verified while the operator had made it an admin another way.
    await t.database.db.updateTable('users').set({ role: 'admin' }).where('id', '=', boss.user.id).execute();
    await confirm(await mailedToken(BOSS));
    await call(t.app, admin.cookie, 'PATCH', `/api/admin/users/${boss.user.id}`, { role: 'user' });
    await t.restart();
    expect(await roleOf(boss.user.id)).toBe('user');
  });

  it('makes the verified listed account an admin at the next start when ADMIN_EMAILS lists it only then', async () => {
    const later = await registerUser(t.app, { email: 'tardia@corto.test' });
    await confirm(await mailedToken('tardia@corto.test'));
    expect(await roleOf(later.user.id)).toBe('user');
    t.config.adminEmails = ['tardia@corto.test'];
    await t.restart();
    expect(await roleOf(later.user.id)).toBe('admin');
  });
});

describe('e-mail verification without SMTP_URL', () => {
  let t: Install;
  beforeAll(async () => (t = await openInstall('sqlite', { ADMIN_EMAILS: BOSS })));
  afterAll(async () => t.close());

  it('is unavailable, said in Spanish: ADMIN_EMAILS then acts only through the shell', async () => {
    const boss = await registerUser(t.app, { email: BOSS });
    expect((await call(t.app, boss.cookie, 'GET', '/api/account/email/verification')).json()).toEqual({ verified: false, available: false, linkSent: false, pendingEmail: null });
    const refused = await call(t.app, boss.cookie, 'POST', '/api/account/email/verification');
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.message).toBe(a.verifyUnavailable);
    await t.restart();
    expect(boss.user.role).toBe('user');
    expect((await call(t.app, boss.cookie, 'GET', '/api/admin/users')).statusCode).toBe(403);
  });
});
