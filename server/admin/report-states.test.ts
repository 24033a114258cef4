import { adminMessages as m } from '@common/admin/admin-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { call, registerAdmin } from './admin-test-support';
import { insertDomain } from '../domains/domain-rows.test-support';
import { personalWorkspaceIdOf } from '../workspaces/personal-workspace';

describe.each(testDialects)('handling abuse reports on %s', (dialect) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof registerAdmin>>;
  beforeAll(async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '0', LINKS_PER_HOUR: '0', REPORTS_PER_HOUR: '0' });
    admin = await registerAdmin(t);
  });
  afterAll(() => t.close());

  const report = async (address: string, reason: string) =>
    expect((await t.app.inject({ method: 'POST', url: '/api/reports', payload: { address, reason } })).statusCode).toBe(202);
  const list = async (state?: 'open' | 'handled') =>
    (await call(t.app, admin.cookie, 'GET', `/api/admin/reports${state ? `?state=${state}` : ''}`)).json();
  const idOf = async (reason: string) => (await list()).reports.find((r: { reason: string }) => r.reason === reason).id as number;

  it('lists open reports with their count; «Resuelta» and «Descartada» move them to the handled list, with who and when; reopening brings one back', async () => {
    const owner = await registerUser(t.app);
    const link = await createLinkAs(t.app, owner.cookie);
    await report(link.shortLink, 'Primera denuncia');
    await report(link.shortLink, 'Segunda denuncia');
    await report('http://localhost:3000/no-existe', 'Tercera denuncia');
    const open = await list();
    expect(open.openCount).toBe(3);
    expect(open.reports.map((r: { reason: string }) => r.reason)).toEqual(['Tercera denuncia', 'Segunda denuncia', 'Primera denuncia']);
    expect(open.reports[0]).toEqual(expect.objectContaining({ state: 'open', handledAt: null, handledBy: null }));
    expect((await call(t.app, admin.cookie, 'GET', '/api/admin/reports/count')).json()).toEqual({ open: 3 });

    const first = await idOf('Primera denuncia');
    const resolved = await call(t.app, admin.cookie, 'PATCH', `/api/admin/reports/${first}`, { state: 'resolved' });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json().report).toEqual(expect.objectContaining({ id: first, state: 'resolved', handledBy: admin.user.email, handledAt: expect.any(String) }));
    const third = await idOf('Tercera denuncia');
    expect((await call(t.app, admin.cookie, 'PATCH', `/api/admin/reports/${third}`, { state: 'dismissed' })).statusCode).toBe(200);

    const after = await list('open');
    expect(after.openCount).toBe(1);
    expect(after.reports.map((r: { reason: string }) => r.reason)).toEqual(['Segunda denuncia']);
    const handled = await list('handled');
    expect(handled.reports.map((r: { reason: string; state: string }) => [r.reason, r.state])).toEqual([
      ['Tercera denuncia', 'dismissed'],
      ['Primera denuncia', 'resolved'],
    ]);
    expect((await call(t.app, admin.cookie, 'GET', '/api/admin/reports/count')).json()).toEqual({ open: 1 });

    const reopened = await call(t.app, admin.cookie, 'PATCH', `/api/admin/reports/${third}`, { state: 'open' });
    expect(reopened.json().report).toEqual(expect.objectContaining({ state: 'open', handledAt: null, handledBy: null }));
    expect((await list()).openCount).toBe(2);

    const { entries } = (await call(t.app, admin.cookie, 'GET', '/api/admin/audit')).json();
    expect(entries.slice(0, 3).map((e: { action: string }) => e.action)).toEqual(['report.reopen', 'report.dismiss', 'report.resolve']);
    expect(entries[0].target).toContain('no-existe');
  });

  it('refuses an unknown state or list in Spanish (400), an unknown report (404), and anyone but an admin', async () => {
    await report('http://localhost:3000/otra', 'Para los errores');
    const id = await idOf('Para los errores');
    const bad = await call(t.app, admin.cookie, 'PATCH', `/api/admin/reports/${id}`, { state: 'closed' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain(m.reportStateInvalid);
    const badList = await call(t.app, admin.cookie, 'GET', '/api/admin/reports?state=todas');
    expect(badList.statusCode).toBe(400);
    expect(JSON.stringify(badList.json())).toContain(m.reportListInvalid);
    const missing = await call(t.app, admin.cookie, 'PATCH', '/api/admin/reports/999999', { state: 'resolved' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe(m.reportNotFound);
    const user = await registerUser(t.app);
    expect((await call(t.app, user.cookie, 'PATCH', `/api/admin/reports/${id}`, { state: 'resolved' })).statusCode).toBe(403);
    expect((await call(t.app, user.cookie, 'GET', '/api/admin/reports/count')).statusCode).toBe(403);
    expect((await call(t.app, undefined, 'GET', '/api/admin/reports/count')).statusCode).toBe(401);
  });

  it("ties a report of an address on a workspace's domain to that domain's link, not to the instance's link of the same alias", async () => {
    const owner = await registerUser(t.app);
    const here = await createLinkAs(t.app, owner.cookie, { customUrl: `oferta-${dialect}` });
    const workspaceId = await personalWorkspaceIdOf(t.database.db, owner.user.id);
    await insertDomain(t.database.db, { workspaceId, hostname: `go-${dialect}.empresa.es` });
    await t.app.appContext.hostedDomains.load();
    // The same alias on the domain: another link.
    const created = await call(t.app, owner.cookie, 'POST', '/api/links', {
      title: 'En el dominio',
      longUrl: 'https://example.com/dominio',
      customUrl: `oferta-${dialect}`,
      domain: `go-${dialect}.empresa.es`,
    });
    expect(created.statusCode, created.body).toBe(201);
    const onDomain = created.json().link as { id: number };

    await report(`https://go-${dialect}.empresa.es/oferta-${dialect}`, 'Denuncia en el dominio');
    await report(here.shortLink, 'Denuncia en la instancia');
    const reports = (await list()).reports as { reason: string; link: { id: number } | null }[];
    expect(reports.find((r) => r.reason === 'Denuncia en el dominio')?.link?.id).toBe(onDomain.id);
    expect(reports.find((r) => r.reason === 'Denuncia en la instancia')?.link?.id).toBe(here.id);
  });
});
