import { linkMessages } from '@common/links/link-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccount } from '../account/delete-account';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';
import { takenAddresses } from './links.queries';
import { createLinkAs, postLink } from './links.test-support';

// A deleted link's addresses are not free for anyone the same minute: whoever took one would catch
// the visits of every QR code and link already printed or shared.

describe.each(testDialects)('addresses of deleted links and accounts on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '0', LINKS_PER_HOUR: '0' });
  });
  afterAll(() => t.close());

  const unique = () => Date.now().toString(36) + Math.random().toString(36).slice(2, 6);
  const remove = (cookie: string, id: number) => t.app.inject({ method: 'DELETE', url: `/api/links/${id}`, headers: { cookie, ...sameOrigin } });
  const heldRefusal = { error: { code: 'conflict', message: linkMessages.aliasHeld, fields: { customUrl: [linkMessages.aliasHeld] } } };
  /** Every hold ends now, as ADDRESS_HOLD_DAYS later would. */
  const holdsEnd = () => t.database.db.updateTable('held_codes').set({ held_until: Date.now() - 1 }).execute();

  it("holds a deleted link's alias, code and former aliases against everyone else (Spanish 409), lets its owner take them back, and frees them when the hold ends", async () => {
    const owner = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const [alias, former, kept] = [`imprenta-${unique()}`, `cartel-${unique()}`, `mio-${unique()}`];
    const moved = await createLinkAs(t.app, owner.cookie, { customUrl: former });
    const edit = await t.app.inject({ method: 'PATCH', url: `/api/links/${moved.id}`, headers: { cookie: owner.cookie, ...sameOrigin }, payload: { customUrl: alias } });
    expect(edit.json().link.previousAddresses).toEqual([former]);
    const other = await createLinkAs(t.app, owner.cookie, { customUrl: kept });
    expect((await remove(owner.cookie, moved.id)).statusCode).toBe(204);
    expect((await remove(owner.cookie, other.id)).statusCode).toBe(204);

    // Its alias in another case, its former alias and its short code (as an alias): all refused.
    for (const address of [alias.toUpperCase(), former, moved.shortCode]) {
      const taken = await postLink(t.app, stranger.cookie, { title: 'Mío', longUrl: 'https://example.com/x', customUrl: address });
      expect(taken.statusCode, address).toBe(409);
      expect(taken.json(), address).toEqual(heldRefusal);
    }
    // Moving a link there, or importing one, is refused the same way.
    const theirs = await createLinkAs(t.app, stranger.cookie);
    const move = await t.app.inject({ method: 'PATCH', url: `/api/links/${theirs.id}`, headers: { cookie: stranger.cookie, ...sameOrigin }, payload: { customUrl: alias } });
    expect(move.statusCode).toBe(409);
    expect(move.json()).toEqual(heldRefusal);
    expect([...(await takenAddresses(t.database.db, [{ domainId: null, address: alias }], stranger.user.id))]).toEqual([alias]);
    // Not a redirect meanwhile: the address answers 404, as for any address that leads nowhere.
    expect((await t.app.inject({ method: 'GET', url: `/${alias}` })).statusCode).toBe(404);

    // The owner may make it again (a link deleted by mistake).
    expect((await postLink(t.app, owner.cookie, { title: 'Otra vez', longUrl: 'https://example.com/y', customUrl: kept })).statusCode).toBe(201);

    await holdsEnd();
    const free = await postLink(t.app, stranger.cookie, { title: 'Ahora sí', longUrl: 'https://example.com/z', customUrl: alias });
    expect(free.statusCode).toBe(201);
  });

  it("holds a deleted account's addresses for everyone, its own earlier deletions included", async () => {
    const leaving = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const [alias, earlier] = [`tienda-${unique()}`, `antes-${unique()}`];
    const link = await createLinkAs(t.app, leaving.cookie, { customUrl: alias });
    const deletedBefore = await createLinkAs(t.app, leaving.cookie, { customUrl: earlier });
    expect((await remove(leaving.cookie, deletedBefore.id)).statusCode).toBe(204);

    await deleteAccount(t.app.appContext, leaving.user.id);

    for (const address of [alias, link.shortCode, earlier]) {
      const taken = await postLink(t.app, stranger.cookie, { title: 'Mío', longUrl: 'https://example.com/x', customUrl: address });
      expect(taken.statusCode, address).toBe(409);
      expect(taken.json(), address).toEqual(heldRefusal);
    }
    // Nothing of the account is left in the holds: they are nobody's now.
    const holds = await t.database.db.selectFrom('held_codes').select('user_id').where('code_key', 'in', [alias, earlier]).execute();
    expect(holds.map((hold) => hold.user_id)).toEqual([null, null]);

    await holdsEnd();
    expect((await postLink(t.app, stranger.cookie, { title: 'Mío', longUrl: 'https://example.com/x', customUrl: alias })).statusCode).toBe(201);
  });
});
