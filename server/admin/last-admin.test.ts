import { accountMessages as a } from '@common/account/account-messages';
import { adminMessages as m } from '@common/admin/admin-messages';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { sameOrigin } from '../test/test-users';
import { call, registerAdmin } from './admin-test-support';

// "At least one active admin" on every path that removes an admin (demotion, disabling, the
// operator's deletion, leaving), and when two admins act at the same moment.

const REPEATS = 5;

describe.each(testDialects)('the last admin on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '0', API_DEADLINE_MS: '0' })));
  afterAll(() => t.close());
  // Each test starts with no admin but those it makes.
  beforeEach(async () => void (await t.database.db.updateTable('users').set({ role: 'user' }).execute()));

  const activeAdmins = async () =>
    (await t.database.db.selectFrom('users').select('id').where('role', '=', 'admin').where('disabled_at', 'is', null).execute()).length;

  /** Two admins doing `act` to each other at the same moment, REPEATS times: one admin always remains. */
  async function raceEachOther(act: (cookie: string, targetId: number) => Promise<{ statusCode: number; json(): { error: { message: string } } }>) {
    for (let round = 0; round < REPEATS; round++) {
      await t.database.db.updateTable('users').set({ role: 'user' }).execute();
      const [ana, bea] = [await registerAdmin(t), await registerAdmin(t)];
      const answers = await Promise.all([act(ana.cookie, bea.user.id), act(bea.cookie, ana.user.id)]);
      expect(await activeAdmins()).toBe(1);
      // One went through, the other was refused in Spanish (or found its author already gone).
      expect(answers.filter((answer) => answer.statusCode < 300)).toHaveLength(1);
      const refused = answers.find((answer) => answer.statusCode >= 300)!;
      expect([401, 403, 409]).toContain(refused.statusCode);
      if (refused.statusCode === 409) expect(refused.json().error.message).toBe(m.lastAdmin);
    }
  }

  it('two admins demoting each other at the same moment leave one admin', async () => {
    await raceEachOther((cookie, id) => call(t.app, cookie, 'PATCH', `/api/admin/users/${id}`, { role: 'user' }));
  });

  it('two admins disabling each other at the same moment leave one active admin', async () => {
    await raceEachOther((cookie, id) => call(t.app, cookie, 'PATCH', `/api/admin/users/${id}`, { disabled: true }));
  });

  it('two admins deleting each other at the same moment leave one admin', async () => {
    await raceEachOther((cookie, id) => call(t.app, cookie, 'DELETE', `/api/admin/users/${id}`));
  });

  it('an admin leaving while the other demotes them leaves one admin', async () => {
    for (let round = 0; round < REPEATS; round++) {
      await t.database.db.updateTable('users').set({ role: 'user' }).execute();
      const [ana, bea] = [await registerAdmin(t), await registerAdmin(t)];
      await Promise.all([
        call(t.app, ana.cookie, 'PATCH', `/api/admin/users/${bea.user.id}`, { role: 'user' }),
        t.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie: ana.cookie, ...sameOrigin }, payload: { password: ana.password } }),
      ]);
      expect(await activeAdmins()).toBe(1);
    }
  });

  it('refuses the last admin leaving, in Spanish, and lets them leave once another admin exists', async () => {
    const only = await registerAdmin(t);
    const leave = () =>
      t.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie: only.cookie, ...sameOrigin }, payload: { password: only.password } });
    const refused = await leave();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(a.lastAdminLeaving);
    // Still there, still signed in, still an admin.
    expect((await call(t.app, only.cookie, 'GET', '/api/admin/users')).statusCode).toBe(200);

    await registerAdmin(t);
    expect((await leave()).statusCode).toBe(204);
    expect(await activeAdmins()).toBe(1);
  });

  it('refuses to demote the last admin, in Spanish', async () => {
    const only = await registerAdmin(t);
    const last = await call(t.app, only.cookie, 'PATCH', `/api/admin/users/${only.user.id}`, { role: 'user' });
    expect(last.statusCode).toBe(409);
    expect(last.json().error.message).toBe(m.lastAdmin);
  });
});
