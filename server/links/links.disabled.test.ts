import { linkMessages } from '@common/links/link-messages';
import type { Link } from '@common/links/link-schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerAdmin } from '../admin/admin-test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { createLinkAs } from './links.test-support';

// A disabled link's owner sees what its visitors see, and why: the operator's decision (with their
// reason), or a destination on a blocked domain; the operator's decision cannot be edited away.

describe.each(testDialects)('a disabled link seen by its owner on %s', (dialect) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof registerAdmin>>;
  beforeAll(async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '0', LINKS_PER_HOUR: '0' });
    admin = await registerAdmin(t);
  });
  afterAll(() => t.close());

  const linkOf = async (cookie: string, id: number) => (await call(t.app, cookie, 'GET', `/api/links/${id}`)).json().link as Link;
  const listed = async (cookie: string, id: number) =>
    ((await call(t.app, cookie, 'GET', '/api/links')).json().links as Link[]).find((link) => link.id === id)!;

  it('says a link on a blocked domain is disabled, and why, until its destination moves off it', async () => {
    const owner = await registerUser(t.app);
    const link = await createLinkAs(t.app, owner.cookie, { longUrl: 'https://tienda.bloqueado.example/oferta' });
    expect(link).toMatchObject({ status: 'active', disabledCause: null, disabledReason: null });
    const plain = await createLinkAs(t.app, owner.cookie, { longUrl: 'https://nobloqueado.example/?https://bloqueado.example/' });
    const port = await createLinkAs(t.app, owner.cookie, { longUrl: 'https://bloqueado.example:8443/x' });
    await call(t.app, admin.cookie, 'PUT', '/api/admin/settings', { signup: 'open', blockedDomains: ['bloqueado.example'] });
    try {
      expect(await linkOf(owner.cookie, link.id)).toMatchObject({ status: 'disabled', disabledCause: 'blockedDomain', disabledReason: null });
      expect(await listed(owner.cookie, link.id)).toMatchObject({ status: 'disabled', disabledCause: 'blockedDomain' });
      // The state filter agrees with the card: under «Desactivado», not under «Activo».
      const filtered = async (status: string) =>
        ((await call(t.app, owner.cookie, 'GET', `/api/links?status=${status}`)).json().links as Link[]).map((one) => one.id);
      expect((await linkOf(owner.cookie, port.id)).status).toBe('disabled');
      expect((await filtered('disabled')).sort()).toEqual([link.id, port.id].sort());
      expect(await filtered('active')).toEqual([plain.id]);
      expect(await filtered('paused')).toEqual([]);
      await call(t.app, owner.cookie, 'DELETE', `/api/links/${port.id}`);
      await call(t.app, owner.cookie, 'DELETE', `/api/links/${plain.id}`);
      // Its owner may still edit it, and moving the destination elsewhere brings it back.
      const moved = await call(t.app, owner.cookie, 'PATCH', `/api/links/${link.id}`, { longUrl: 'https://permitido.example/oferta' });
      expect(moved.statusCode).toBe(200);
      expect(moved.json().link).toMatchObject({ status: 'active', disabledCause: null });
    } finally {
      await call(t.app, admin.cookie, 'PUT', '/api/admin/settings', { signup: 'open', blockedDomains: [] });
    }
  });

  it("says a link the operator disabled is, with the operator's reason, and refuses edits in Spanish", async () => {
    const owner = await registerUser(t.app);
    const link = await createLinkAs(t.app, owner.cookie, { title: 'Antes', tags: ['uno'] });
    expect((await call(t.app, admin.cookie, 'PATCH', `/api/admin/links/${link.id}`, { disabled: true, reason: 'Suplanta a un banco' })).statusCode).toBe(200);
    expect(await linkOf(owner.cookie, link.id)).toMatchObject({ status: 'disabled', disabledCause: 'operator', disabledReason: 'Suplanta a un banco' });

    const edit = await call(t.app, owner.cookie, 'PATCH', `/api/links/${link.id}`, { title: 'Después', paused: true });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().error).toEqual({ code: 'conflict', message: linkMessages.disabledByOperator });
    const bulk = await call(t.app, owner.cookie, 'POST', '/api/links/bulk-update', { ids: [link.id], changes: { addTags: ['dos'] } });
    expect(bulk.json()).toEqual({ updated: 0, results: [] });
    expect(await linkOf(owner.cookie, link.id)).toMatchObject({ title: 'Antes', tags: ['uno'], paused: false });
    // Deleting it stays in the owner's hands.
    expect((await call(t.app, owner.cookie, 'DELETE', `/api/links/${link.id}`)).statusCode).toBe(204);
  });
});
