import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../admin/admin-test-support';
import { entryArgs } from '../test/server-build';
import { createTestApp, type TestApp } from '../test/test-app';
import { registerUser } from '../test/test-users';

const run = promisify(execFile);

describe('npm run corto -- admin <email>', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp('sqlite', { ADMIN_EMAILS: 'jefa@corto.test', API_DEADLINE_MS: '0' })));
  afterAll(async () => t.close());

  const corto = (...args: string[]) => run(process.execPath, [...entryArgs('corto'), ...args], { env: { ...process.env, DATA_DIR: t.config.dataDir, LOG_LEVEL: 'silent' } });

  it('makes an account an admin from the shell, its address unverified, beside the running instance, and logs it', async () => {
    const boss = await registerUser(t.app, { email: 'jefa@corto.test' });
    expect(boss.user.role).toBe('user');
    const { stdout } = await corto('admin', 'JEFA@corto.test');
    expect(stdout).toContain('ahora es administrador');
    expect((await call(t.app, boss.cookie, 'GET', '/api/admin/users')).statusCode).toBe(200);
    const { entries } = (await call(t.app, boss.cookie, 'GET', '/api/admin/audit')).json();
    expect(entries[0]).toMatchObject({ admin: 'npm run corto -- admin', action: 'user.role', target: 'jefa@corto.test', detail: 'admin' });
  });

  it('says in Spanish when no account has the address, and fails', async () => {
    await expect(corto('admin', 'nadie@corto.test')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No hay ninguna cuenta con el email nadie@corto.test'),
    });
  });
});
