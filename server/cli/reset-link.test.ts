import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryArgs } from '../test/server-build';
import { createTestApp, type TestApp } from '../test/test-app';
import { registerUser } from '../test/test-users';

const run = promisify(execFile);

describe('npm run corto -- reset-link <email>', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp('sqlite')));
  afterAll(async () => t.close());

  const corto = (...args: string[]) =>
    run(process.execPath, [...entryArgs('corto'), ...args], {
      env: { ...process.env, DATA_DIR: t.config.dataDir, PUBLIC_BASE_URL: 'https://corto.example', LOG_LEVEL: 'silent' },
    });

  it('prints a one-time link that sets a new password, beside the running instance', async () => {
    const { user, password } = await registerUser(t.app);
    const { stdout } = await corto('reset-link', user.email.toUpperCase());
    const link = new URL(stdout.trim());
    expect(`${link.origin}${link.pathname}`).toBe('https://corto.example/auth/restablecer');
    const token = link.searchParams.get('token')!;
    const confirm = () => t.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token, password: 'desde-la-consola-1' } });
    expect((await confirm()).statusCode).toBe(204);
    expect((await confirm()).statusCode).toBe(400);
    const login = (p: string) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: p } });
    expect((await login(password)).statusCode).toBe(401);
    expect((await login('desde-la-consola-1')).statusCode).toBe(200);
  });

  it('warns that the link names localhost when PUBLIC_BASE_URL is unset', async () => {
    const { user } = await registerUser(t.app);
    const { stdout, stderr } = await run(process.execPath, [...entryArgs('corto'), 'reset-link', user.email], {
      env: { ...process.env, DATA_DIR: t.config.dataDir, PUBLIC_BASE_URL: '', LOG_LEVEL: 'silent' },
    });
    expect(stdout).toMatch(/^http:\/\/localhost:\d+\/auth\/restablecer\?token=/);
    expect(stderr).toContain('Aviso: PUBLIC_BASE_URL no está definida');
  });

  it('says in Spanish when no account has the address, and fails', async () => {
    await expect(corto('reset-link', 'nadie@corto.test')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No hay ninguna cuenta con el email nadie@corto.test'),
    });
  });
});
