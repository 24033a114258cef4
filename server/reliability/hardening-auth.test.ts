import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { makeImage, sameOrigin } from '../test/test-users';

// Attacks on sign-in against a listening server: a burst of logins must not stall everyone else's
// requests, a guesser must not lock the owner out, and an IPv6 client cannot multiply its
// allowance by changing addresses inside its /64. Client addresses come from X-Forwarded-For
// (TRUST_PROXY=true), as behind a reverse proxy.

describe.each(testDialects)('sign-in under attack on %s', (dialect) => {
  let t: TestApp;
  afterEach(async () => t?.close());

  async function listen(env: Record<string, string> = {}) {
    t = await createTestApp(dialect, { TRUST_PROXY: 'true', ...env });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }

  const login = (base: string, email: string, password: string, from: string, cookie?: string) =>
    fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': from, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ email, password }),
    });

  async function signUp(base: string, name: string, password = 'clave-de-la-duena') {
    const form = new FormData();
    form.append('name', name);
    form.append('email', `${name}@corto.test`);
    form.append('password', password);
    form.append('profileImage', new Blob([new Uint8Array(await makeImage())], { type: 'image/png' }), 'a.png');
    const response = await fetch(`${base}/api/auth/register`, { method: 'POST', body: form, headers: { 'x-forwarded-for': '198.51.100.77' } });
    expect(response.status).toBe(201);
    const cookie = (name: string) => response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`))?.split(';')[0];
    const { user } = (await response.json()) as { user: { email: string; profileImage: string } };
    return { ...user, password, session: cookie('corto_session'), device: cookie('corto_device') };
  }

  const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((n, s) => ({ ...n, [s]: (n[s] ?? 0) + 1 }), {});

  it('answers a login burst beyond the hashing queue with 503 and Retry-After, at once, and checks the rest', async () => {
    const base = await listen({ AUTH_RATE_LIMIT_IP: '0' });
    const burst = await Promise.all(
      Array.from({ length: 150 }, (_, i) => login(base, `rafaga-${i}@corto.test`, 'no-es-esta', `203.0.113.${i % 250}`)),
    );
    const counted = tally(burst.map((r) => r.status));
    console.log(`login burst on ${dialect}:`, counted);
    expect(Object.keys(counted).sort()).toEqual(['401', '503']);
    expect(counted[401]).toBeGreaterThanOrEqual(34);
    for (const busy of burst.filter((r) => r.status === 503)) {
      expect(busy.headers.get('retry-after')).toBe('1');
      expect(await busy.json()).toEqual({
        error: { code: 'busy', message: 'Hay demasiadas peticiones en este momento. Inténtalo de nuevo en unos segundos.' },
      });
    }
  });

  it('serves someone else’s picture and creates their link (QR included) while a login burst waits', async () => {
    const base = await listen({ AUTH_RATE_LIMIT_IP: '0' });
    const other = await signUp(base, 'otra-persona');
    const answered: string[] = [];
    const burst = Array.from({ length: 34 }, (_, i) =>
      login(base, `rafaga-${i}@corto.test`, 'no-es-esta', `203.0.113.${i}`).then((r) => {
        answered.push('login');
        return r.status;
      }),
    );
    // Once one login is answered, the others' hashes are all waiting.
    await Promise.race(burst);
    const picture = fetch(`${base}${other.profileImage}`).then(async (r) => {
      await r.arrayBuffer();
      answered.push('picture');
      return r.status;
    });
    const link = fetch(`${base}/api/links`, {
      method: 'POST',
      headers: { cookie: other.session ?? '', 'content-type': 'application/json', ...sameOrigin },
      body: JSON.stringify({ title: 'Durante la ráfaga', longUrl: 'https://example.com/rafaga' }),
    }).then(async (r) => {
      await r.arrayBuffer();
      answered.push('link');
      return r.status;
    });
    expect(await Promise.all([picture, link])).toEqual([200, 201]);
    expect(new Set(await Promise.all(burst))).toEqual(new Set([401]));
    const before = (what: string) => answered.slice(0, answered.indexOf(what)).filter((a) => a === 'login').length;
    console.log(`during a burst of ${burst.length} logins on ${dialect}: picture after ${before('picture')}, link after ${before('link')}`);
    // Unbounded, both came after 32 to 34 of the 34 logins (every thread busy hashing); bounded, after 2 to 11.
    expect(before('picture')).toBeLessThan(burst.length * 0.75);
    expect(before('link')).toBeLessThan(burst.length * 0.75);
  });

  it('lets the owner in after a guesser rotating addresses inside one IPv6 /64 is refused', async () => {
    const base = await listen();
    const owner = await signUp(base, 'duena');
    const statuses = [];
    for (let i = 1; i <= 14; i++) statuses.push((await login(base, owner.email, `adivinanza-${i}`, `2001:db8:77:1::${i.toString(16)}`)).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429, 429, 429]);
    const refused = await login(base, owner.email, owner.password, '2001:db8:77:1:dead:beef:0:1');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner, from an address the account has never seen.
    expect((await login(base, owner.email, owner.password, '192.0.2.10')).status).toBe(200);
  });

  it('slows a guesser spread over 40 addresses so that it cannot reach the right password', async () => {
    const base = await listen();
    const owner = await signUp(base, 'objetivo');
    const statuses: number[] = [];
    const retryAfter: number[] = [];
    // 80 guesses, each address trying two: the right password is the 22nd, just after the account slowed down.
    const guesses = Array.from({ length: 80 }, (_, i) => (i === 21 ? owner.password : `adivinanza-${i}`));
    for (const [i, guess] of guesses.entries()) {
      const response = await login(base, owner.email, guess, `192.0.2.${100 + (i % 40)}`);
      statuses.push(response.status);
      if (response.status === 429) retryAfter.push(Number(response.headers.get('retry-after')));
      if (i === 21) {
        // Meanwhile the browser the owner signed up with, on a new address, is let in.
        expect((await login(base, owner.email, owner.password, '192.0.2.250', owner.device)).status).toBe(200);
      }
    }
    console.log(`distributed guess on ${dialect}:`, tally(statuses));
    // 20 failures (twice the per-client limit) are checked, then one per backoff period (1 s, 2 s...).
    expect(statuses.slice(0, 21)).toEqual(Array(21).fill(401));
    expect(statuses[21]).toBe(429);
    expect(statuses).not.toContain(200);
    expect(tally(statuses)[401]).toBeLessThanOrEqual(24);
    expect(Math.min(...retryAfter)).toBeGreaterThanOrEqual(1);
  });

  it('refuses the most common passwords at sign-up, under the password field, and creates nothing', async () => {
    const base = await listen();
    for (const password of ['123456', 'qwerty', 'Password1', 'Contrasena', 'secreto']) {
      const form = new FormData();
      form.append('name', 'Común');
      form.append('email', 'comun@corto.test');
      form.append('password', password);
      form.append('profileImage', new Blob([new Uint8Array(await makeImage())], { type: 'image/png' }), 'a.png');
      const response = await fetch(`${base}/api/auth/register`, { method: 'POST', body: form });
      expect(response.status, password).toBe(400);
      expect(((await response.json()) as { error: { fields: unknown } }).error.fields).toEqual({
        password: ['Esta contraseña es demasiado común'],
      });
    }
    const users = await t.database.db.selectFrom('users').select('id').execute();
    expect(users).toEqual([]);
  });

  it('counts logins per client with an IPv6 client counted by its /64', async () => {
    const base = await listen({ AUTH_RATE_LIMIT_IP: '5' });
    const statuses = [];
    for (let i = 1; i <= 7; i++) {
      statuses.push((await login(base, `v6-${i}@corto.test`, 'no-es-esta', `2001:db8:5:5:${i}:${i}:${i}:${i}`)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect((await login(base, 'v6-8@corto.test', 'no-es-esta', '2001:db8:5:6::1')).status).toBe(401);
  });
});
