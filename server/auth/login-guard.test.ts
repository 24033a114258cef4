import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { backoffMs } from './login-guard';

const OWNER_HOME = '198.51.100.10';
const ATTACKER = '203.0.113.66';

describe.each(testDialects)('wrong passwords slow the guesser down, never lock the owner out (%s)', (dialect) => {
  let t: TestApp;
  afterEach(async () => t?.close());

  const login = (email: string, password: string, remoteAddress: string, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress,
      headers: cookie ? { cookie } : {},
      payload: { email, password },
    });

  /** The owner signs up from home: that address and that browser are known to the account. */
  async function owner() {
    const { user, password } = await registerUser(t.app, { password: 'clave-de-la-duena' });
    return { email: user.email, password };
  }

  /** The device cookie a sign-in left, as a `cookie` header. */
  async function deviceCookie(email: string, password: string, remoteAddress: string) {
    const response = await login(email, password, remoteAddress);
    expect(response.statusCode).toBe(200);
    const device = response.cookies.find((c) => c.name === 'corto_device');
    expect(device).toMatchObject({ httpOnly: true, path: '/api/auth', sameSite: 'Lax' });
    return `corto_device=${device!.value}`;
  }

  it('lets the owner in from another address after an attacker’s 12 wrong passwords, and keeps refusing the attacker', async () => {
    t = await createTestApp(dialect);
    const { email, password } = await owner();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await login(email, `adivinanza-${i}`, ATTACKER)).statusCode);
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);

    const refused = await login(email, password, ATTACKER);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: { code: 'rate_limited', message: 'Demasiados intentos. Espera un momento y vuelve a probar.' } });
    // The rest of the 15-minute window.
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(900);

    // The owner, on an address never seen before (a café, the phone), and at home.
    expect((await login(email, password, '192.0.2.200')).statusCode).toBe(200);
    expect((await login(email, password, OWNER_HOME)).statusCode).toBe(200);
  });

  it('counts only failures: a sign-in forgets the client’s earlier mistakes', async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_EMAIL: '3' });
    const { email, password } = await owner();
    // Two mistakes and a sign-in, four times over: twice the limit of three failures, never refused.
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 2; i++) expect((await login(email, `me-equivoque-${i}`, OWNER_HOME)).statusCode).toBe(401);
      expect((await login(email, password, OWNER_HOME)).statusCode).toBe(200);
    }
    // Three in a row, and even the right password waits.
    for (let i = 0; i < 3; i++) expect((await login(email, `me-equivoque-${i}`, OWNER_HOME)).statusCode).toBe(401);
    expect((await login(email, password, OWNER_HOME)).statusCode).toBe(429);
  });

  it('slows a guesser spread over many addresses, so the right password is never tried, while the owner’s browser signs in', async () => {
    // 3 failures per client; beyond 6 on the account, clients it does not know wait 1 s, 2 s, 4 s...
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_EMAIL: '3' });
    const { email, password } = await owner();
    const cookie = await deviceCookie(email, password, OWNER_HOME);

    // Seven wrong guesses (the seventh takes the first 1 s period), then the right one at once, then more.
    const wrong = Array.from({ length: 59 }, (_, i) => `adivinanza-${i}`);
    const guesses = [...wrong.slice(0, 7), password, ...wrong.slice(7)];
    const answers = [];
    for (const [i, guess] of guesses.entries()) {
      // 30 addresses, two guesses each: no client reaches its own limit.
      answers.push(await login(email, guess, `203.0.113.${1 + (i % 30)}`));
      if (i === 7) {
        // While the account is slowed: the owner's browser, from an address it never used, is not;
        // a stranger's client is.
        expect((await login(email, password, '192.0.2.201', cookie)).statusCode).toBe(200);
        expect((await login(email, password, '192.0.2.202')).statusCode).toBe(429);
      }
    }
    const statuses = answers.map((r) => r.statusCode);
    console.log(`distributed guess on ${dialect}:`, statuses.filter((s) => s === 401).length, 'checked,', statuses.filter((s) => s === 429).length, 'refused');
    expect(statuses.slice(0, 8)).toEqual([...Array(7).fill(401), 429]);
    expect(statuses).not.toContain(200);
    // One more check each time a backoff period ends: 1 s, then 2 s, 4 s... a handful here at most.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(9);
    for (const refused of answers.filter((r) => r.statusCode === 429)) {
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }

    // The owner's home address is known even without the cookie.
    expect((await login(email, password, OWNER_HOME)).statusCode).toBe(200);
  });

  it('lets one more attempt through when the backoff period ends, then waits twice as long', async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_EMAIL: '1' });
    const { email } = await owner();
    expect((await login(email, 'adivinanza-1', '203.0.113.1')).statusCode).toBe(401);
    expect((await login(email, 'adivinanza-2', '203.0.113.2')).statusCode).toBe(401);
    expect((await login(email, 'adivinanza-3', '203.0.113.3')).statusCode).toBe(401); // takes the first 1 s period
    const first = await login(email, 'adivinanza-4', '203.0.113.4');
    expect(first.statusCode).toBe(429);
    expect(first.headers['retry-after']).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await login(email, 'adivinanza-5', '203.0.113.5')).statusCode).toBe(401); // takes the 2 s period
    const second = await login(email, 'adivinanza-6', '203.0.113.6');
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toBe('2');
  });

  it('counts an IPv6 client by its /64: new addresses inside it are the same client', async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_EMAIL: '3' });
    const { email, password } = await owner();
    const inside = (n: number) => `2001:db8:abcd:12::${n.toString(16)}:${(n * 7).toString(16)}`;
    for (let n = 1; n <= 3; n++) expect((await login(email, `adivinanza-${n}`, inside(n))).statusCode).toBe(401);
    expect((await login(email, password, inside(4))).statusCode).toBe(429);
    expect((await login(email, password, `::ffff:${ATTACKER}`)).statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown e-mail alike, refusals included', async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_EMAIL: '2' });
    const { email } = await owner();
    const known = [];
    const unknown = [];
    for (let i = 0; i < 3; i++) {
      known.push(await login(email, 'no-es-esta', ATTACKER));
      unknown.push(await login('nadie-aqui@corto.test', 'no-es-esta', ATTACKER));
    }
    expect(known.map((r) => [r.statusCode, r.body])).toEqual(unknown.map((r) => [r.statusCode, r.body]));
    expect(known.map((r) => r.statusCode)).toEqual([401, 401, 429]);
  });
});

describe.each(testDialects)('per-address limits count an IPv6 client by its /64 (%s)', (dialect) => {
  let t: TestApp;
  afterEach(async () => t?.close());

  it('limits logins per /64, and leaves the neighbouring /64 alone', async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '3' });
    const login = (remoteAddress: string, i: number) =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { email: `v6-${i}@corto.test`, password: 'no-es-esta' } });
    for (let i = 1; i <= 3; i++) expect((await login(`2001:db8:0:7:${i}::${i}`, i)).statusCode).toBe(401);
    const limited = await login('2001:db8:0:7:ffff:ffff:ffff:fffe', 4);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await login('2001:db8:0:8::1', 5)).statusCode).toBe(401);
  });
});

describe('the backoff', () => {
  it('doubles from 1 s to at most 15 minutes: a few dozen checks an hour beyond the threshold', () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(50)).toBe(15 * 60 * 1000);
    let elapsed = 0;
    let checks = 0;
    while (elapsed < 60 * 60 * 1000) elapsed += backoffMs(++checks);
    expect(checks).toBeLessThan(20);
  });
});
