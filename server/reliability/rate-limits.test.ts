import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { makeImage, registerUser } from '../test/test-users';

// Bursts from one address, all at once, against a listening server with the default limits
// (30 attempts per client per minute, 10 failed logins per account and client per 15 minutes).

describe.each(testDialects)('auth rate limits under a burst on %s', (dialect) => {
  let t: TestApp;
  afterEach(async () => t?.close());

  async function listen(env: Record<string, string> = {}) {
    t = await createTestApp(dialect, env);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }

  const statuses = (responses: Response[]) =>
    responses.reduce<Record<number, number>>((counts, r) => ({ ...counts, [r.status]: (counts[r.status] ?? 0) + 1 }), {});

  it('lets at most 30 logins a minute through from one address, however the burst is dressed', async () => {
    const base = await listen();
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        fetch(`${base}/api/auth/login`, {
          method: 'POST',
          // A different e-mail each time, and a forged X-Forwarded-For: neither escapes the per-address limit.
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i}` },
          body: JSON.stringify({ email: `rafaga-${i}@corto.test`, password: 'secreto-123' }),
        }),
      ),
    );
    const counted = statuses(burst);
    console.log(`login burst on ${dialect}:`, counted);
    expect(counted).toEqual({ 401: 30, 429: 30 });
    const limited = (await burst.find((r) => r.status === 429)!.json()) as { error: { code: string } };
    expect(limited.error.code).toBe('rate_limited');
  });

  it('lets at most 10 logins through for one e-mail from one client, whatever the password', async () => {
    const base = await listen({ AUTH_RATE_LIMIT_IP: '0' });
    const { user, password } = await registerUser(t.app);
    const burst = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        fetch(`${base}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: user.email, password: i === 24 ? password : `adivinanza-${i}` }),
        }),
      ),
    );
    const counted = statuses(burst);
    console.log(`one e-mail burst on ${dialect}:`, counted);
    expect(counted[429]).toBe(15);
    expect((counted[401] ?? 0) + (counted[200] ?? 0)).toBe(10);
  });

  it('creates at most 30 accounts a minute from one address, and stores no more', async () => {
    const base = await listen();
    const picture = new Uint8Array(await makeImage());
    const burst = await Promise.all(
      Array.from({ length: 45 }, (_, i) => {
        const form = new FormData();
        form.append('name', `Masiva ${i}`);
        form.append('email', `masiva-${i}@corto.test`);
        form.append('password', 'secreto-123');
        form.append('profileImage', new Blob([picture], { type: 'image/png' }), 'a.png');
        return fetch(`${base}/api/auth/register`, { method: 'POST', body: form });
      }),
    );
    const counted = statuses(burst);
    console.log(`register burst on ${dialect}:`, counted);
    expect(counted).toEqual({ 201: 30, 429: 15 });
    const users = await t.database.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(users.n)).toBe(30);
  }, 60_000);
});
