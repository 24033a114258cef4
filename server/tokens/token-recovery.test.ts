import { tokenMessages } from '@common/tokens/token-messages';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createResetLink } from '../account/password-reset';
import { testRedisUrl as redisUrl } from '../test/redis';
import { createTwoInstancesOnOneDatabase, type InstancesOnOneDatabase, twoInstancesMissing } from '../test/two-instances';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';
import { bearer, createTokenAs } from './tokens.test-support';

// Taking an account back ends whatever a hijacker made in it: a password reset and a password
// change revoke every API token of the account, and the owner can revoke them all at once.
// Closing the other sessions leaves tokens alone (they are not sessions; the page says so).

/** A call a live token gets through (404: no such link) and a dead one does not (401). Not the list: on SQLite it wakes a reader thread, slow on a loaded machine. */
const LIVE = 404;
const links = (app: FastifyInstance, secret: string) => app.inject({ method: 'GET', url: '/api/links/999999999', headers: bearer(secret) });

async function resetPassword(t: TestApp, userId: number, password: string) {
  const link = new URL(await createResetLink(t.database.db, t.config, userId));
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/password-reset/confirm',
    payload: { token: link.searchParams.get('token'), password },
  });
}

describe.each(testDialects)('API tokens and account recovery on %s', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '0' });
  });
  afterEach(async () => t.close());

  it('a password reset revokes every token of the account, and only of that account', async () => {
    const me = await registerUser(t.app);
    const other = await registerUser(t.app);
    const mine = [await createTokenAs(t.app, me.cookie), await createTokenAs(t.app, me.cookie, { scope: 'read' })];
    const theirs = await createTokenAs(t.app, other.cookie);
    for (const { secret } of [...mine, theirs]) expect((await links(t.app, secret)).statusCode).toBe(LIVE);

    expect((await resetPassword(t, me.user.id, 'recuperada-456')).statusCode).toBe(204);
    for (const { secret } of mine) expect((await links(t.app, secret)).statusCode).toBe(401);
    expect((await links(t.app, theirs.secret)).statusCode).toBe(LIVE);
  });

  it('a password change revokes every token of the account', async () => {
    const me = await registerUser(t.app);
    const { secret } = await createTokenAs(t.app, me.cookie);
    expect((await links(t.app, secret)).statusCode).toBe(LIVE);
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { cookie: me.cookie, ...sameOrigin },
      payload: { currentPassword: me.password, newPassword: 'cambiada-789' },
    });
    expect(changed.statusCode).toBe(204);
    expect((await links(t.app, secret)).statusCode).toBe(401);
    // The session that changed it stays, and may make a new token.
    const fresh = await createTokenAs(t.app, me.cookie);
    expect((await links(t.app, fresh.secret)).statusCode).toBe(LIVE);
  });

  it("'Cerrar las demás' ends sessions, not tokens", async () => {
    const me = await registerUser(t.app);
    const { secret } = await createTokenAs(t.app, me.cookie);
    const closed = await t.app.inject({ method: 'DELETE', url: '/api/account/sessions', headers: { cookie: me.cookie, ...sameOrigin } });
    expect(closed.statusCode).toBe(204);
    expect((await links(t.app, secret)).statusCode).toBe(LIVE);
  });

  it('DELETE /api/tokens revokes them all at once, with a Spanish answer, for a session only', async () => {
    const me = await registerUser(t.app);
    const other = await registerUser(t.app);
    const mine = [await createTokenAs(t.app, me.cookie), await createTokenAs(t.app, me.cookie)];
    const theirs = await createTokenAs(t.app, other.cookie);
    const revokeAll = (headers: Record<string, string>) => t.app.inject({ method: 'DELETE', url: '/api/tokens', headers });

    // Not with a token (not even one of the account's), nor from another site.
    expect((await revokeAll(bearer(mine[0]!.secret))).statusCode).toBe(403);
    expect((await revokeAll({ cookie: me.cookie, 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await revokeAll({})).statusCode).toBe(401);
    for (const { secret } of mine) expect((await links(t.app, secret)).statusCode).toBe(LIVE);

    const done = await revokeAll({ cookie: me.cookie, ...sameOrigin });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ revoked: 2, message: tokenMessages.allRevoked });
    for (const { secret } of mine) expect((await links(t.app, secret)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/tokens', headers: { cookie: me.cookie } })).json()).toEqual({ tokens: [] });
    expect((await links(t.app, theirs.secret)).statusCode).toBe(LIVE);

    const again = await revokeAll({ cookie: me.cookie, ...sameOrigin });
    expect(again.json()).toEqual({ revoked: 0, message: tokenMessages.noneToRevoke });
  });
});

const missing = await twoInstancesMissing('token-recovery.test (two instances)', redisUrl);

describe.skipIf(missing.length > 0)('a reset on one instance ends the tokens on the other at once (PostgreSQL, Redis)', () => {
  let a: TestApp;
  let instances: InstancesOnOneDatabase;
  let b: FastifyInstance;
  beforeAll(async () => {
    instances = await createTwoInstancesOnOneDatabase(redisUrl);
    ({ a, b } = instances);
  });
  afterAll(() => instances?.close());

  it('B, which holds the token in its cache, refuses it as soon as the revocation is heard (not after the cache ages out)', async () => {
    for (const change of ['reset', 'revoke-all'] as const) {
      const me = await registerUser(a.app);
      const { secret } = await createTokenAs(a.app, me.cookie);
      expect((await links(b, secret)).statusCode).toBe(LIVE);
      if (change === 'reset') expect((await resetPassword(a, me.user.id, 'recuperada-456')).statusCode).toBe(204);
      else expect((await a.app.inject({ method: 'DELETE', url: '/api/tokens', headers: { cookie: me.cookie, ...sameOrigin } })).statusCode).toBe(200);
      // Pub/sub is asynchronous: within two seconds, where the cache entry would live a minute.
      let status = LIVE;
      for (let i = 0; i < 100 && status === LIVE; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = (await links(b, secret)).statusCode;
      }
      expect(status, change).toBe(401);
    }
  });
});
