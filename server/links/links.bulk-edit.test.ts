import { linkMessages as m } from '@common/links/link-messages';
import type { BulkUpdateResult } from '@common/links/bulk-schemas';
import type { Link } from '@common/links/link-schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';
import { bearer, createTokenAs } from '../tokens/tokens.test-support';
import { createLinkAs, postLink } from './links.test-support';

// Acting on several links at once: POST /api/links/bulk-update and /api/links/bulk-delete, on the
// caller's own links only, in one transaction, deleting exactly as DELETE /api/links/:id does.

describe.each(testDialects)('bulk update and delete on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  let other: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '0', LINKS_PER_HOUR: '0' });
    ({ cookie } = await registerUser(t.app));
    ({ cookie: other } = await registerUser(t.app));
  });
  afterAll(() => t.close());

  const unique = () => Date.now().toString(36) + Math.random().toString(36).slice(2, 6);
  const bulkUpdate = (payload: object, headers: Record<string, string> = { cookie, ...sameOrigin }) =>
    t.app.inject({ method: 'POST', url: '/api/links/bulk-update', headers, payload });
  const bulkDelete = (payload: object, headers: Record<string, string> = { cookie, ...sameOrigin }) =>
    t.app.inject({ method: 'POST', url: '/api/links/bulk-delete', headers, payload });
  const one = async (id: number, who = cookie) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/links/${id}`, headers: { cookie: who } });
    return response.statusCode === 200 ? (response.json().link as Link) : undefined;
  };

  it('pauses and resumes several links at once, and the redirect follows at once', async () => {
    const [a, b] = [await createLinkAs(t.app, cookie), await createLinkAs(t.app, cookie)];
    // In the redirect cache before the pause.
    expect((await t.app.inject({ method: 'GET', url: `/${a.shortCode}` })).statusCode).toBe(302);
    const paused = await bulkUpdate({ ids: [a.id, b.id, a.id], changes: { paused: true } });
    expect(paused.statusCode).toBe(200);
    const body = paused.json() as BulkUpdateResult;
    expect(body.updated).toBe(2);
    expect(body.results.map((result) => [result.id, result.before.paused, result.after.paused])).toEqual([
      [a.id, false, true],
      [b.id, false, true],
    ]);
    expect((await one(a.id))!.status).toBe('paused');
    expect((await one(b.id))!.status).toBe('paused');
    expect((await t.app.inject({ method: 'GET', url: `/${a.shortCode}` })).statusCode).not.toBe(302);
    expect((await bulkUpdate({ ids: [a.id, b.id], changes: { paused: false } })).json().updated).toBe(2);
    expect((await one(a.id))!.status).toBe('active');
    expect((await t.app.inject({ method: 'GET', url: `/${a.shortCode}` })).statusCode).toBe(302);
  });

  it('adds and takes off tags, keeping each link’s other tags and the user’s first spelling', async () => {
    const a = await createLinkAs(t.app, cookie, { tags: ['Verano', 'viejo'] });
    const b = await createLinkAs(t.app, cookie, { tags: [] });
    const response = await bulkUpdate({ ids: [a.id, b.id], changes: { addTags: ['verano', 'Playa'], removeTags: ['VIEJO'] } });
    expect(response.statusCode).toBe(200);
    const body = response.json() as BulkUpdateResult;
    expect(body.results).toEqual([
      { id: a.id, before: { paused: false, tags: ['Verano', 'viejo'] }, after: { paused: false, tags: ['Playa', 'Verano'] } },
      { id: b.id, before: { paused: false, tags: [] }, after: { paused: false, tags: ['Playa', 'Verano'] } },
    ]);
    expect((await one(b.id))!.tags).toEqual(['Playa', 'Verano']);
  });

  it('never touches another user’s links: their ids count as not found', async () => {
    const mine = await createLinkAs(t.app, cookie);
    const theirs = await createLinkAs(t.app, other, { tags: ['suyo'] });
    const update = await bulkUpdate({ ids: [mine.id, theirs.id], changes: { paused: true, addTags: ['mío'] } });
    expect(update.json().updated).toBe(1);
    expect((await one(theirs.id, other))!).toMatchObject({ status: 'active', tags: ['suyo'] });
    const removal = await bulkDelete({ ids: [theirs.id, 999_999_999] });
    expect(removal.statusCode).toBe(200);
    expect(removal.json()).toEqual({ deleted: 0 });
    expect(await one(theirs.id, other)).toBeDefined();
  });

  it('refuses in Spanish what it cannot do, and changes nothing', async () => {
    const full = await createLinkAs(t.app, cookie, { tags: Array.from({ length: 20 }, (_, i) => `t${i}`) });
    const plain = await createLinkAs(t.app, cookie);
    const tooMany = await bulkUpdate({ ids: [plain.id, full.id], changes: { addTags: ['otra'], paused: true } });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.fields['changes.addTags']).toEqual([m.bulkTagsTooMany]);
    expect((await one(plain.id))!).toMatchObject({ status: 'active', tags: [] });

    const cases: [object, string][] = [
      [{ ids: [], changes: { paused: true } }, m.bulkIdsInvalid],
      [{ ids: Array.from({ length: 501 }, (_, i) => i + 1), changes: { paused: true } }, m.bulkIdsTooMany],
      [{ ids: ['1'], changes: { paused: true } }, m.bulkIdsInvalid],
      [{ ids: [plain.id], changes: {} }, m.bulkChangesEmpty],
      [{ ids: [plain.id], changes: { paused: 'sí' } }, m.bulkPausedInvalid],
      [{ ids: [plain.id], changes: { addTags: ['a|b'] } }, m.tagCharacters],
    ];
    for (const [payload, message] of cases) {
      const response = await bulkUpdate(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(response.json().error), JSON.stringify(payload)).toContain(message);
    }
    const badDelete = await bulkDelete({ ids: [0] });
    expect(badDelete.statusCode).toBe(400);
    expect(JSON.stringify(badDelete.json().error)).toContain(m.bulkIdsInvalid);
  });

  it('deletes as DELETE /api/links/:id does: the redirect stops, the addresses are held, the QR file goes', async () => {
    const alias = `lote-${unique()}`;
    const a = await createLinkAs(t.app, cookie, { customUrl: alias });
    const b = await createLinkAs(t.app, cookie);
    expect((await t.app.inject({ method: 'GET', url: `/${alias}` })).statusCode).toBe(302);
    const qrKey = (await t.database.db.selectFrom('urls').select('qr').where('id', '=', a.id).executeTakeFirstOrThrow()).qr;
    const response = await bulkDelete({ ids: [a.id, b.id] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ deleted: 2 });
    expect(await one(a.id)).toBeUndefined();
    expect(await one(b.id)).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: `/${alias}` })).statusCode).toBe(404);
    // Held against everyone else, as a single delete holds them.
    const taken = await postLink(t.app, other, { title: 'x', longUrl: 'https://example.com/x', customUrl: alias });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.message).toBe(m.aliasHeld);
    const holds = await t.database.db.selectFrom('held_codes').select('code_key').where('code_key', 'in', [alias, b.shortCode]).execute();
    expect(holds).toHaveLength(2);
    const qr = await t.app.inject({ method: 'GET', url: `/storage/qrs/${qrKey}` });
    expect(qr.statusCode).toBe(404);
  });

  it('takes a write token, and refuses a read token (403 insufficient_scope)', async () => {
    const link = await createLinkAs(t.app, cookie);
    const { secret: read } = await createTokenAs(t.app, cookie, { scope: 'read' });
    const { secret: write } = await createTokenAs(t.app, cookie, { scope: 'write' });
    const refused = await bulkUpdate({ ids: [link.id], changes: { paused: true } }, bearer(read));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('insufficient_scope');
    expect((await bulkDelete({ ids: [link.id] }, bearer(read))).statusCode).toBe(403);
    expect((await bulkUpdate({ ids: [link.id], changes: { paused: true } }, bearer(write))).json().updated).toBe(1);
    expect((await bulkDelete({ ids: [link.id] }, bearer(write))).json()).toEqual({ deleted: 1 });
  });
});
