import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcErrorMessages, oidcMessages } from '@common/auth/oidc-messages';
import { ConfigError, loadConfig } from '../../config';
import { startTestProvider, type TestProvider } from '../../test/oidc-provider';
import { createTestApp, type TestApp, testDialects } from '../../test/test-app';
import { type SmtpCapture, startSmtpCapture } from '../../test/smtp-capture';
import { registerUser, sameOrigin, sessionCookie } from '../../test/test-users';

// Sign-in with the company's provider, over HTTP against a real OpenID provider (oidc-provider):
// the browser's redirects followed by hand, cookies kept, on both databases.

const CORTO = 'http://corto.test';
const CREATE_NEW = '/dashboard?createNew=https%3A%2F%2Fejemplo.com%2Funa-pagina';
/**
 * Each request to the provider: room for its first token request (it compiles its code then) on a
 * machine running three suites at once, where a first sign-in failed with 500 ms; and well short
 * of the slow provider's wait below.
 */
const PROVIDER_TIMEOUT_MS = '2500';
const SLOW_PROVIDER_MS = 5000;

/** A browser's cookies at the provider (each sign-in starts with a fresh one: no session there). */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    take(setCookies: string[]) {
      for (const line of setCookies) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
      }
    },
  };
}

function flowCookieOf(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'corto_oidc');
  if (!cookie) throw new Error(`no flow cookie (${response.statusCode}: ${response.body})`);
  return `corto_oidc=${cookie.value}`;
}

const hasSession = (response: LightMyRequestResponse) => response.cookies.some((c) => c.name === 'corto_session' && c.value !== '');

/** /auth?error=<code>: the code the callback sent the browser back with. */
function errorCodeOf(response: LightMyRequestResponse): string | null {
  expect(response.statusCode).toBe(302);
  return new URL(String(response.headers.location), CORTO).searchParams.get('error');
}

interface Started {
  flowCookie: string;
  authorizationUrl: string;
}

async function start(t: TestApp, next?: string): Promise<Started> {
  const response = await t.app.inject({ method: 'GET', url: `/api/auth/oidc/start${next ? `?${new URLSearchParams({ next })}` : ''}` });
  expect(response.statusCode).toBe(302);
  return { flowCookie: flowCookieOf(response), authorizationUrl: String(response.headers.location) };
}

/** Follows the provider's redirects (login and consent included) until it sends the browser back to Corto. */
async function throughProvider(authorizationUrl: string): Promise<URL> {
  const jar = cookieJar();
  let url = authorizationUrl;
  for (let hop = 0; hop < 12; hop += 1) {
    if (url.startsWith(CORTO)) return new URL(url);
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(response.headers.getSetCookie());
    const location = response.headers.get('location');
    if (!location) throw new Error(`the provider answered ${response.status}: ${await response.text()}`);
    url = new URL(location, url).toString();
  }
  throw new Error('too many redirects at the provider');
}

async function callback(t: TestApp, url: URL, flowCookie: string | undefined) {
  return t.app.inject({ method: 'GET', url: url.pathname + url.search, headers: flowCookie ? { cookie: flowCookie } : {} });
}

/** The whole round trip for `provider.loginAs`: Corto's answer to the callback. */
async function signIn(t: TestApp, next?: string) {
  const started = await start(t, next);
  const back = await throughProvider(started.authorizationUrl);
  return { response: await callback(t, back, started.flowCookie), back, started };
}

async function sessionUser(t: TestApp, cookie: string) {
  return (await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } })).json().user;
}

describe.each(testDialects)('sign-in with the company provider (%s)', (dialect) => {
  let provider: TestProvider;
  let t: TestApp;
  let counter = 0;
  const account = (values: Parameters<TestProvider['accounts']['set']>[1]) => {
    counter += 1;
    const sub = `sujeto-${counter}`;
    provider.accounts.set(sub, { name: `Persona ${counter}`, email: `persona-${counter}-${dialect}@empresa.test`, email_verified: true, ...values });
    provider.loginAs = sub;
    return sub;
  };

  beforeAll(async () => {
    provider = await startTestProvider({ redirectUris: [`${CORTO}/api/auth/oidc/callback`], postLogoutRedirectUris: [`${CORTO}/`] });
    t = await createTestApp(dialect, provider.env({ PUBLIC_BASE_URL: CORTO, OIDC_ADMIN_GROUP: 'corto-admins', OIDC_TIMEOUT_MS: PROVIDER_TIMEOUT_MS }));
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  it('tells the web app the button and that passwords still work', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/config' });
    expect(response.json()).toEqual({ oidc: { label: 'Empresa' }, passwordLogin: true });
  });

  it('creates an account at the first sign-in, lands where the user was going, and finds it again at the second', async () => {
    const sub = account({ name: 'Ana Pérez' });
    const { response, started } = await signIn(t, CREATE_NEW);
    // PKCE, state and nonce went to the provider.
    const asked = new URL(started.authorizationUrl).searchParams;
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('state')).toBeTruthy();
    expect(asked.get('nonce')).toBeTruthy();
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(CREATE_NEW);
    const user = await sessionUser(t, sessionCookie(response));
    expect(user).toMatchObject({ name: 'Ana Pérez', email: `persona-${counter}-${dialect}@empresa.test`, profileImage: '', role: 'user' });
    const { db } = t.database;
    const row = await db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toBe('');
    expect(row.email_verified_at).not.toBeNull();
    expect(await db.selectFrom('workspaces').select('id').where('personal_user_id', '=', user.id).executeTakeFirst()).toBeDefined();
    expect(await db.selectFrom('oidc_identities').selectAll().where('sub', '=', sub).execute()).toHaveLength(1);

    // Second time: the same account, even with a new e-mail at the provider (matched by sub).
    provider.accounts.get(sub)!.email = `otra-${counter}-${dialect}@empresa.test`;
    const again = await signIn(t);
    expect(again.response.headers.location).toBe('/dashboard');
    expect((await sessionUser(t, sessionCookie(again.response))).id).toBe(user.id);
    // No password to sign in with.
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: '' + 'x'.repeat(8) } });
    expect(login.statusCode).toBe(401);
  });

  it('joins a password account when the provider says the e-mail is verified', async () => {
    const registered = await registerUser(t.app, { email: `ya-existe-${dialect}@empresa.test` });
    account({ email: registered.user.email.toUpperCase(), email_verified: true });
    const { response } = await signIn(t);
    expect((await sessionUser(t, sessionCookie(response))).id).toBe(registered.user.id);
    // The password still works, and the account page shows the link and allows unlinking it.
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: registered.user.email, password: registered.password } });
    expect(login.statusCode).toBe(200);
    const cookie = sessionCookie(response);
    const linked = await t.app.inject({ method: 'GET', url: '/api/account/oidc', headers: { cookie } });
    expect(linked.json()).toMatchObject({ linked: { label: 'Empresa' }, hasPassword: true });
    const unlink = await t.app.inject({ method: 'DELETE', url: '/api/account/oidc', headers: { cookie, ...sameOrigin } });
    expect(unlink.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/api/account/oidc', headers: { cookie } })).json().linked).toBeNull();
  });

  it('refuses an unverified e-mail that belongs to an account, in Spanish and without a session', async () => {
    const registered = await registerUser(t.app, { email: `sin-verificar-${dialect}@empresa.test` });
    account({ email: registered.user.email, email_verified: false });
    const { response } = await signIn(t);
    expect(errorCodeOf(response)).toBe('unverified');
    expect(hasSession(response)).toBe(false);
    expect(oidcErrorMessages.unverified).toMatch(/no lo da por verificado/);
    expect(await t.database.db.selectFrom('oidc_identities').select('id').where('user_id', '=', registered.user.id).execute()).toHaveLength(0);
  });

  it('makes an admin of a member of OIDC_ADMIN_GROUP, and takes it back when they leave the group', async () => {
    const sub = account({ groups: ['ventas', 'corto-admins'] });
    const first = await signIn(t);
    expect((await sessionUser(t, sessionCookie(first.response))).role).toBe('admin');
    provider.accounts.get(sub)!.groups = ['ventas'];
    const second = await signIn(t);
    expect((await sessionUser(t, sessionCookie(second.response))).role).toBe('user');
  });

  it('keeps out a user the provider disabled, and one Corto disabled', async () => {
    const sub = account({});
    const first = await signIn(t);
    const userId = (await sessionUser(t, sessionCookie(first.response))).id;
    provider.accounts.get(sub)!.disabled = true;
    const refused = await signIn(t);
    expect(errorCodeOf(refused.response)).toBe('denied');
    expect(hasSession(refused.response)).toBe(false);

    provider.accounts.get(sub)!.disabled = false;
    await t.database.db.updateTable('users').set({ disabled_at: Date.now() }).where('id', '=', userId).execute();
    const disabled = await signIn(t);
    expect(errorCodeOf(disabled.response)).toBe('disabled');
    expect(hasSession(disabled.response)).toBe(false);
  });

  it('refuses a forged state, a replayed callback and a replayed code', async () => {
    account({});
    const started = await start(t);
    const back = await throughProvider(started.authorizationUrl);

    const forged = new URL(back);
    forged.searchParams.set('state', 'estado-inventado');
    const forgedAnswer = await callback(t, forged, started.flowCookie);
    expect(errorCodeOf(forgedAnswer)).toBe('mismatch');
    expect(hasSession(forgedAnswer)).toBe(false);
    // The flow was spent by the forged answer: the real one, late, finds nothing either.
    expect(errorCodeOf(await callback(t, back, started.flowCookie))).toBe('expired');

    // A whole sign-in, then its callback again.
    const good = await signIn(t);
    expect(good.response.statusCode).toBe(302);
    expect(hasSession(good.response)).toBe(true);
    const replayed = await callback(t, good.back, good.started.flowCookie);
    expect(errorCodeOf(replayed)).toBe('expired');
    expect(hasSession(replayed)).toBe(false);

    // The spent code under a new flow's state and cookie: the provider refuses it.
    const fresh = await start(t);
    const state = new URL(fresh.authorizationUrl).searchParams.get('state')!;
    const reused = new URL(good.back);
    reused.searchParams.set('state', state);
    const before = provider.tokenRequests;
    const reusedAnswer = await callback(t, reused, fresh.flowCookie);
    expect(provider.tokenRequests).toBe(before + 1);
    expect(errorCodeOf(reusedAnswer)).toBe('expired');
    expect(hasSession(reusedAnswer)).toBe(false);
  });

  it('answers missing, repeated or odd callback parameters with a Spanish message on /auth', async () => {
    account({});
    const noCookie = await callback(t, new URL(`${CORTO}/api/auth/oidc/callback?code=abc&state=def`), undefined);
    expect(errorCodeOf(noCookie)).toBe('expired');

    const cases: Array<[(state: string) => string, string]> = [
      [(state) => `state=${state}`, 'mismatch'], // no code
      [() => 'code=abc', 'mismatch'], // no state
      [(state) => `code=abc&state=${state}&state=${state}`, 'mismatch'],
      [(state) => `code=abc&code=def&state=${state}`, 'mismatch'],
      [(state) => `error=access_denied&state=${state}`, 'denied'],
      [(state) => `error=server_error&error_description=%3Cscript%3E&state=${state}`, 'provider'],
      // The provider names itself in its answers (RFC 9207): one without, or from another, is not its.
      [(state) => `code=un-codigo-que-nadie-dio&state=${state}`, 'provider'],
      [(state) => `code=un-codigo-que-nadie-dio&state=${state}&iss=${encodeURIComponent('http://127.0.0.1:1')}`, 'provider'],
      [(state) => `code=un-codigo-que-nadie-dio&state=${state}&iss=${encodeURIComponent(provider.issuer)}`, 'expired'],
    ];
    for (const [query, code] of cases) {
      const started = await start(t, '/ajustes');
      const state = new URL(started.authorizationUrl).searchParams.get('state')!;
      const response = await callback(t, new URL(`${CORTO}/api/auth/oidc/callback?${query(state)}`), started.flowCookie);
      expect(errorCodeOf(response), query(state)).toBe(code);
      // Where the user was going survives the failure.
      expect(new URL(String(response.headers.location), CORTO).searchParams.get('next')).toBe('/ajustes');
      expect(hasSession(response)).toBe(false);
    }
  });

  it('refuses ID tokens for another audience, from another issuer, with another nonce, or expired', async () => {
    const sub = account({});
    const now = Math.floor(Date.now() / 1000);
    const forgeries: Array<(claims: Record<string, unknown>) => Record<string, unknown>> = [
      (claims) => ({ ...claims, aud: 'otra-aplicacion' }),
      (claims) => ({ ...claims, iss: 'http://127.0.0.1:1/impostor' }),
      (claims) => ({ ...claims, nonce: 'otro-nonce' }),
      (claims) => ({ ...claims, iat: now - 3600, exp: now - 1800 }),
    ];
    try {
      for (const forge of forgeries) {
        provider.misbehave = { kind: 'id-token', claims: forge };
        const { response } = await signIn(t);
        expect(errorCodeOf(response)).toBe('provider');
        expect(hasSession(response)).toBe(false);
      }
    } finally {
      provider.misbehave = undefined;
    }
    expect(await t.database.db.selectFrom('oidc_identities').select('id').where('sub', '=', sub).execute()).toHaveLength(0);
  });

  it('gives up on a provider that answers slowly or with garbage', async () => {
    account({});
    try {
      for (const misbehave of [{ kind: 'slow', ms: SLOW_PROVIDER_MS }, { kind: 'garbage' }] as const) {
        provider.misbehave = misbehave;
        const { response } = await signIn(t);
        expect(errorCodeOf(response)).toBe('provider');
        expect(hasSession(response)).toBe(false);
      }
    } finally {
      provider.misbehave = undefined;
    }
  });

  it('ends the provider session too at logout, with the ID token as hint', async () => {
    account({});
    const { response } = await signIn(t);
    const cookie = sessionCookie(response);
    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie, ...sameOrigin } });
    expect(logout.statusCode).toBe(200);
    const endSession = new URL(logout.json().endSessionUrl);
    expect(endSession.origin).toBe(provider.issuer);
    expect(endSession.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${CORTO}/`);
    expect(await sessionUser(t, cookie)).toBeNull();
    // The provider accepts it (a confirmation page, not an error).
    const atProvider = await fetch(endSession, { redirect: 'manual' });
    expect(atProvider.status).toBeLessThan(400);
  });

  it('lets an account without a password leave by typing its e-mail, and not change a password it does not have', async () => {
    account({});
    const { response } = await signIn(t);
    const cookie = sessionCookie(response);
    const user = await sessionUser(t, cookie);
    expect((await t.app.inject({ method: 'GET', url: '/api/account/oidc', headers: { cookie } })).json()).toMatchObject({ hasPassword: false });
    const unlink = await t.app.inject({ method: 'DELETE', url: '/api/account/oidc', headers: { cookie, ...sameOrigin } });
    expect(unlink.statusCode).toBe(409);
    expect(unlink.json().error.message).toBe(oidcMessages.unlinkNeedsPassword);
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { cookie, ...sameOrigin },
      payload: { currentPassword: 'lo-que-sea', newPassword: 'una-clave-nueva-larga' },
    });
    expect(change.statusCode).toBe(409);
    expect(change.json().error.message).toBe(oidcMessages.noPasswordToChange);
    const wrong = await t.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie, ...sameOrigin }, payload: { password: 'otra@empresa.test' } });
    expect(wrong.statusCode).toBe(400);
    const leave = await t.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie, ...sameOrigin }, payload: { password: user.email } });
    expect(leave.statusCode).toBe(204);
    expect(await t.database.db.selectFrom('oidc_identities').select('id').where('user_id', '=', user.id).execute()).toHaveLength(0);
  });
});

describe.each(testDialects)('a provider-only server: OIDC_SIGNUP=false, PASSWORD_LOGIN=false (%s)', (dialect) => {
  let provider: TestProvider;
  let t: TestApp;

  beforeAll(async () => {
    provider = await startTestProvider({ redirectUris: [`${CORTO}/api/auth/oidc/callback`] });
    t = await createTestApp(dialect, provider.env({ PUBLIC_BASE_URL: CORTO, OIDC_SIGNUP: 'false', PASSWORD_LOGIN: 'false' }));
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  it('refuses password sign-in, sign-up and the mailed reset in Spanish, and says so to the web app', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/config' })).json()).toEqual({ oidc: { label: 'Empresa' }, passwordLogin: false });
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@empresa.test', password: 'secreto-123' } });
    expect(login.statusCode).toBe(403);
    expect(login.json().error.message).toBe(oidcMessages.passwordLoginOff);
    const register = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: {} });
    expect(register.statusCode).toBe(403);
    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email: 'a@empresa.test' } });
    expect(reset.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/password-reset' })).json()).toEqual({ available: false });
  });

  it('does not make accounts for the provider\'s users when OIDC_SIGNUP=false', async () => {
    provider.accounts.set('nuevo', { email: `nuevo-${dialect}@empresa.test`, email_verified: true, name: 'Nuevo' });
    provider.loginAs = 'nuevo';
    const { response } = await signIn(t);
    expect(errorCodeOf(response)).toBe('signup');
    expect(hasSession(response)).toBe(false);
    expect(await t.database.db.selectFrom('users').select('id').execute()).toHaveLength(0);
  });
});

describe('the provider configuration, checked at start', () => {
  it('names the missing piece of a half-made configuration', () => {
    const problem = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('the configuration was accepted');
    };
    expect(problem({ OIDC_ISSUER: 'https://sso.empresa.test/realms/corto', OIDC_CLIENT_SECRET: 'x' })).toMatch(/OIDC_CLIENT_ID: es obligatoria/);
    expect(problem({ OIDC_ISSUER: 'https://sso.empresa.test/realms/corto', OIDC_CLIENT_ID: 'corto' })).toMatch(/OIDC_CLIENT_SECRET: es obligatoria/);
    expect(problem({ OIDC_CLIENT_ID: 'corto', OIDC_LABEL: 'Empresa' })).toMatch(/OIDC_ISSUER: es obligatoria/);
    expect(problem({ PASSWORD_LOGIN: 'false' })).toMatch(/PASSWORD_LOGIN: solo puede ser false/);
    expect(problem({ OIDC_ISSUER: 'sso.empresa.test' })).toMatch(/OIDC_ISSUER: debe ser la dirección/);
    // Authentik's issuer ends in a slash, and must stay as written.
    const config = loadConfig({ OIDC_ISSUER: 'https://authentik.empresa.test/application/o/corto/', OIDC_CLIENT_ID: 'corto', OIDC_CLIENT_SECRET: 'x' });
    expect(config.oidc).toMatchObject({ issuer: 'https://authentik.empresa.test/application/o/corto/', label: 'authentik.empresa.test', signup: true });
    expect(config.passwordLogin).toBe(true);
  });

  it('stops the start naming OIDC_ISSUER when the provider cannot be reached', async () => {
    // A port nobody listens on: closed right after it was taken.
    const gone = await startTestProvider({ redirectUris: [`${CORTO}/api/auth/oidc/callback`] });
    await gone.close();
    const t = await createTestApp(testDialects[0]!, gone.env({ OIDC_TIMEOUT_MS: '500' }));
    try {
      await expect(t.app.ready()).rejects.toThrow(/OIDC_ISSUER: no se pudo leer http:\/\/127\.0\.0\.1:\d+\/\.well-known\/openid-configuration/);
    } finally {
      await t.close().catch(() => {});
    }
  });
});

describe.each(testDialects)('sign-in with the company provider, with mail (%s)', (dialect) => {
  let provider: TestProvider;
  let smtp: SmtpCapture;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    provider = await startTestProvider({ redirectUris: [`${CORTO}/api/auth/oidc/callback`] });
    t = await createTestApp(dialect, provider.env({ PUBLIC_BASE_URL: CORTO, SMTP_URL: smtp.url, OIDC_TIMEOUT_MS: PROVIDER_TIMEOUT_MS }));
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
    await smtp?.close();
  });

  it('joins a password account only once its holder confirmed the address at Corto', async () => {
    const registered = await registerUser(t.app, { email: `por-confirmar-${dialect}@empresa.test` });
    provider.accounts.set('sujeto-correo', { name: 'Persona', email: registered.user.email, email_verified: true });
    provider.loginAs = 'sujeto-correo';
    const refused = await signIn(t);
    expect(errorCodeOf(refused.response)).toBe('unconfirmed');
    expect(hasSession(refused.response)).toBe(false);
    expect(await t.database.db.selectFrom('oidc_identities').select('id').where('user_id', '=', registered.user.id).execute()).toHaveLength(0);

    // The holder opens the link mailed at sign-up: the provider's sign-in now joins the account.
    const mail = await smtp.nextWhere((message) => message.to !== undefined && JSON.stringify(message.to).includes(registered.user.email));
    const link = /https?:\/\/\S+\/auth\/verificar\?token=[\w-]+/.exec(mail.text ?? '')![0];
    const token = new URL(link).searchParams.get('token');
    const confirmed = await t.app.inject({ method: 'POST', url: '/api/auth/email-verification/confirm', payload: { token } });
    expect(confirmed.statusCode).toBe(200);
    const joined = await signIn(t);
    expect((await sessionUser(t, sessionCookie(joined.response))).id).toBe(registered.user.id);
  });
});
