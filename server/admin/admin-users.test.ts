import { adminMessages as m } from '@common/admin/admin-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { agents } from '../redirect/redirect.test-support';
import { visitorMessages } from '../redirect/visitor-pages';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { call, registerAdmin } from './admin-test-support';

describe.each(testDialects)('the operator and accounts on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { ADMIN_EMAILS: 'Jefa@Corto.test', AUTH_RATE_LIMIT_IP: '0', LINKS_PER_HOUR: '0' });
  });
  afterAll(() => t.close());

  const visit = (code: string) => t.app.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': agents.desktop } });

  it('answers 401 to nobody and 403 to someone who is not an admin', async () => {
    const user = await registerUser(t.app);
    expect((await call(t.app, undefined, 'GET', '/api/admin/users')).statusCode).toBe(401);
    const refused = await call(t.app, user.cookie, 'GET', '/api/admin/users');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('forbidden');
    expect(user.user.role).toBe('user');
  });

  it('does not make an account listed in ADMIN_EMAILS an admin at sign-up: nobody proved the address yet (admin-emails.test.ts)', async () => {
    const boss = await registerUser(t.app, { email: 'jefa@corto.test' });
    expect(boss.user.role).toBe('user');
    expect((await call(t.app, boss.cookie, 'GET', '/api/admin/users')).statusCode).toBe(403);
  });

  it('finds accounts by e-mail or name, with their link and click counts, a page at a time', async () => {
    const admin = await registerAdmin(t);
    const ana = await registerUser(t.app, { name: 'Ana Buscable', email: `ana-${Date.now()}@buscar.test` });
    await createLinkAs(t.app, ana.cookie);
    await createLinkAs(t.app, ana.cookie);
    const byName = await call(t.app, admin.cookie, 'GET', '/api/admin/users?q=buscable');
    expect(byName.json().users).toEqual([expect.objectContaining({ id: ana.user.id, links: 2, clicks: 0, disabled: false, role: 'user' })]);
    const byEmail = await call(t.app, admin.cookie, 'GET', '/api/admin/users?q=BUSCAR.TEST');
    expect(byEmail.json().users.map((u: { id: number }) => u.id)).toEqual([ana.user.id]);

    for (let i = 0; i < 51; i += 1) await registerUser(t.app, { email: `pagina-${i}-${Date.now()}@paginas.test` });
    const first = (await call(t.app, admin.cookie, 'GET', '/api/admin/users?q=paginas.test')).json();
    expect(first.users).toHaveLength(50);
    expect(first.nextCursor).toEqual(first.users.at(-1).id);
    const second = (await call(t.app, admin.cookie, 'GET', `/api/admin/users?q=paginas.test&cursor=${first.nextCursor}`)).json();
    expect(second.users).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
  });

  it('finds an account by its name in any case, by a short term, as renamed, and no more once deleted', async () => {
    const admin = await registerAdmin(t);
    const stamp = Date.now().toString(36);
    const bea = await registerUser(t.app, { name: `Beatriz Núñez ${stamp}`, email: `bea-${stamp}@Ejemplo.test` });
    const found = async (q: string) => (await call(t.app, admin.cookie, 'GET', `/api/admin/users?q=${encodeURIComponent(q)}`)).json().users.map((u: { id: number }) => u.id);
    expect(await found(`núñez ${stamp}`)).toEqual([bea.user.id]);
    expect(await found(`NÚÑEZ ${stamp.toUpperCase()}`)).toEqual([bea.user.id]);
    expect(await found(`bea-${stamp}@ejemplo`)).toEqual([bea.user.id]);
    expect(await found('ñe')).toContain(bea.user.id); // shorter than a trigram: compared row by row
    expect(await found(`nadie-${stamp}`)).toEqual([]);

    expect((await call(t.app, bea.cookie, 'PATCH', '/api/account', { name: `Bea Otero ${stamp}` })).statusCode).toBe(200);
    expect(await found(`núñez ${stamp}`)).toEqual([]);
    expect(await found(`nunez ${stamp}`)).toEqual([]);
    expect(await found(`otero ${stamp}`)).toEqual([bea.user.id]);
    expect((await call(t.app, admin.cookie, 'DELETE', `/api/admin/users/${bea.user.id}`)).statusCode).toBe(204);
    expect(await found(`otero ${stamp}`)).toEqual([]);
    expect(await found(`bea-${stamp}`)).toEqual([]);
  });

  it('finds an account whatever the accents, as the links search does: gomez finds Gómez, and Gómez finds Gomez', async () => {
    const admin = await registerAdmin(t);
    const stamp = Date.now().toString(36);
    const gomez = await registerUser(t.app, { name: `Lucía Gómez ${stamp}` });
    const plain = await registerUser(t.app, { name: `Lucia Gomez Plana ${stamp}` });
    const found = async (q: string) =>
      (await call(t.app, admin.cookie, 'GET', `/api/admin/users?q=${encodeURIComponent(q)}`)).json().users.map((u: { id: number }) => u.id).sort();
    const both = [gomez.user.id, plain.user.id].sort();
    expect(await found(`gomez ${stamp}`)).toEqual([gomez.user.id]);
    expect(await found(`GÓMEZ ${stamp}`)).toEqual([gomez.user.id]);
    expect(await found(`lucia gomez`)).toEqual(expect.arrayContaining(both));
    expect(await found(`Lucía Gómez Plana ${stamp}`)).toEqual([plain.user.id]);
    expect(await found('gó')).toEqual(expect.arrayContaining(both)); // shorter than a trigram: row by row, accents folded too
    // A new name is searched by its own words at once.
    expect((await call(t.app, gomez.cookie, 'PATCH', '/api/account', { name: `Íñigo Pérez ${stamp}` })).statusCode).toBe(200);
    expect(await found(`inigo perez ${stamp}`)).toEqual([gomez.user.id]);
    expect(await found(`gomez ${stamp}`)).toEqual([]);
  });

  it('disabling an account ends its sessions, refuses its sign-in and makes its links answer 410; enabling brings them back', async () => {
    const admin = await registerAdmin(t);
    const user = await registerUser(t.app);
    const link = await createLinkAs(t.app, user.cookie, { longUrl: 'https://example.com/desactivar' });
    expect((await visit(link.shortCode)).statusCode).toBe(302); // now cached

    const disabled = await call(t.app, admin.cookie, 'PATCH', `/api/admin/users/${user.user.id}`, { disabled: true });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().user.disabled).toBe(true);
    expect((await call(t.app, user.cookie, 'GET', '/api/auth/session')).json()).toEqual({ user: null });
    const login = await call(t.app, undefined, 'POST', '/api/auth/login', { email: user.user.email, password: user.password });
    expect(login.statusCode).toBe(403);
    expect(login.json().error.message).toBe(m.accountDisabled);
    const gone = await visit(link.shortCode);
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain(visitorMessages.disabledTitle);

    await call(t.app, admin.cookie, 'PATCH', `/api/admin/users/${user.user.id}`, { disabled: false });
    expect((await visit(link.shortCode)).statusCode).toBe(302);
    expect((await call(t.app, undefined, 'POST', '/api/auth/login', { email: user.user.email, password: user.password })).statusCode).toBe(200);
  });

  it('makes an admin, and refuses to disable or delete oneself or to leave no admin', async () => {
    const admin = await registerAdmin(t);
    const other = await registerUser(t.app);
    const promoted = await call(t.app, admin.cookie, 'PATCH', `/api/admin/users/${other.user.id}`, { role: 'admin' });
    expect(promoted.json().user.role).toBe('admin');
    expect((await call(t.app, other.cookie, 'GET', '/api/admin/users')).statusCode).toBe(200);

    const self = await call(t.app, admin.cookie, 'PATCH', `/api/admin/users/${admin.user.id}`, { disabled: true });
    expect(self.statusCode).toBe(409);
    expect(self.json().error.message).toBe(m.notYourself);
    expect((await call(t.app, admin.cookie, 'DELETE', `/api/admin/users/${admin.user.id}`)).statusCode).toBe(409);

    // Only these two are admins of a fresh install: demote every other one first.
    await t.database.db.updateTable('users').set({ role: 'user' }).where('id', 'not in', [admin.user.id, other.user.id]).execute();
    expect((await call(t.app, admin.cookie, 'PATCH', `/api/admin/users/${other.user.id}`, { role: 'user' })).statusCode).toBe(200);
    const last = await call(t.app, admin.cookie, 'PATCH', `/api/admin/users/${admin.user.id}`, { role: 'user' });
    expect(last.statusCode).toBe(409);
    expect(last.json().error.message).toBe(m.lastAdmin);
  });

  it('deletes an account: its links stop at once and it cannot sign in', async () => {
    const admin = await registerAdmin(t);
    const user = await registerUser(t.app);
    const link = await createLinkAs(t.app, user.cookie);
    expect((await visit(link.shortCode)).statusCode).toBe(302);
    expect((await call(t.app, admin.cookie, 'DELETE', `/api/admin/users/${user.user.id}`)).statusCode).toBe(204);
    expect((await visit(link.shortCode)).statusCode).toBe(404);
    expect((await call(t.app, undefined, 'POST', '/api/auth/login', { email: user.user.email, password: user.password })).statusCode).toBe(401);
    expect((await call(t.app, admin.cookie, 'DELETE', `/api/admin/users/${user.user.id}`)).statusCode).toBe(404);
  });

  it('records every action in the audit log, newest first, with the reason given for disabling', async () => {
    const admin = await registerAdmin(t);
    const user = await registerUser(t.app);
    await call(t.app, admin.cookie, 'PATCH', `/api/admin/users/${user.user.id}`, { disabled: true, reason: 'Spam masivo' });
    await call(t.app, admin.cookie, 'PATCH', `/api/admin/users/${user.user.id}`, { role: 'admin' });
    const { entries } = (await call(t.app, admin.cookie, 'GET', '/api/admin/audit')).json();
    expect(entries.slice(0, 2)).toEqual([
      expect.objectContaining({ admin: admin.user.email, action: 'user.role', target: user.user.email, detail: 'admin' }),
      expect.objectContaining({ admin: admin.user.email, action: 'user.disable', target: user.user.email, detail: 'Spam masivo' }),
    ]);
  });
});
