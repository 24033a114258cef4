import { adminMessages as m } from '@common/admin/admin-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs, postLink } from '../links/links.test-support';
import { agents } from '../redirect/redirect.test-support';
import { visitorMessages } from '../redirect/visitor-pages';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { call, registerAdmin } from './admin-test-support';

describe.each(testDialects)('the operator and links on %s', (dialect) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof registerAdmin>>;
  beforeAll(async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '0', LINKS_PER_HOUR: '0', REPORTS_PER_HOUR: '3' });
    admin = await registerAdmin(t);
  });
  afterAll(() => t.close());

  const visit = (code: string) => t.app.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': agents.desktop } });

  it('finds any user\'s link by title, address or destination domain, with its owner', async () => {
    const owner = await registerUser(t.app);
    const link = await createLinkAs(t.app, owner.cookie, { title: 'Campaña de Otoño', longUrl: 'https://tienda-rara.example/oferta', customUrl: 'otono-x1' });
    const find = async (q: string) =>
      (await call(t.app, admin.cookie, 'GET', `/api/admin/links?q=${encodeURIComponent(q)}`)).json().links.map((l: { id: number }) => l.id);
    expect(await find('campana de otoño')).toEqual([link.id]);
    expect(await find('tienda-rara.example')).toEqual([link.id]);
    expect(await find(`http://localhost:3000/OTONO-X1`)).toEqual([link.id]);
    expect(await find(link.shortCode)).toContain(link.id);
    const listed = (await call(t.app, admin.cookie, 'GET', `/api/admin/links?owner=${owner.user.id}`)).json().links;
    expect(listed).toEqual([expect.objectContaining({ id: link.id, owner: { id: owner.user.id, email: owner.user.email }, disabled: false })]);
    expect((await call(t.app, owner.cookie, 'GET', '/api/admin/links')).statusCode).toBe(403);
  });

  it('finds a link by its title without regard to accents or case, by a short term, as edited, and no more once deleted', async () => {
    const owner = await registerUser(t.app);
    const stamp = Date.now().toString(36);
    const link = await createLinkAs(t.app, owner.cookie, { title: `Campaña NAVIDEÑA ${stamp}`, longUrl: `https://Tienda-${stamp}.example/Rebajas` });
    const find = async (q: string, only = '') =>
      (await call(t.app, admin.cookie, 'GET', `/api/admin/links?q=${encodeURIComponent(q)}${only}`)).json().links.map((l: { id: number }) => l.id);
    expect(await find(`navidena ${stamp}`)).toEqual([link.id]);
    expect(await find(`CAMPAÑA navideña ${stamp.toUpperCase()}`)).toEqual([link.id]);
    expect(await find(`tienda-${stamp}.example/rebajas`)).toEqual([link.id]);
    expect(await find('ñ', `&owner=${owner.user.id}`)).toEqual([link.id]); // shorter than a trigram: compared row by row
    expect(await find('þz', `&owner=${owner.user.id}`)).toEqual([]); // a letter no title, address, code or destination here holds

    const edit = await call(t.app, owner.cookie, 'PATCH', `/api/links/${link.id}`, { title: `Rebajas de verano ${stamp}`, longUrl: `https://otra-${stamp}.example/` });
    expect(edit.statusCode).toBe(200);
    expect(await find(`navidena ${stamp}`)).toEqual([]);
    expect(await find(`tienda-${stamp}`)).toEqual([]);
    expect(await find(`verano ${stamp}`)).toEqual([link.id]);
    expect(await find(`otra-${stamp}.example`)).toEqual([link.id]);
    expect((await call(t.app, owner.cookie, 'DELETE', `/api/links/${link.id}`)).statusCode).toBe(204);
    expect(await find(`verano ${stamp}`)).toEqual([]);
  });

  it('disables a link with a reason (410 page at once), its owner sees it disabled, and enables it again', async () => {
    const owner = await registerUser(t.app);
    const link = await createLinkAs(t.app, owner.cookie);
    expect((await visit(link.shortCode)).statusCode).toBe(302);
    const off = await call(t.app, admin.cookie, 'PATCH', `/api/admin/links/${link.id}`, { disabled: true, reason: 'Phishing' });
    expect(off.json().link).toEqual(expect.objectContaining({ disabled: true, disabledReason: 'Phishing' }));
    const page = await visit(link.shortCode);
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('Este link ha sido desactivado');
    expect(page.body).toContain(`href="/denunciar?link=${encodeURIComponent(link.shortLink)}"`);
    expect((await call(t.app, owner.cookie, 'GET', `/api/links/${link.id}`)).json().link.status).toBe('disabled');
    await call(t.app, admin.cookie, 'PATCH', `/api/admin/links/${link.id}`, { disabled: false });
    expect((await visit(link.shortCode)).statusCode).toBe(302);
    expect((await call(t.app, admin.cookie, 'PATCH', '/api/admin/links/999999', { disabled: true })).statusCode).toBe(404);
  });

  it('blocks a domain and its subdomains: creation and edits refused under the field, existing links 410 at once', async () => {
    const owner = await registerUser(t.app);
    const before = await createLinkAs(t.app, owner.cookie, { longUrl: 'https://cdn.malo.example/x' });
    const elsewhere = await createLinkAs(t.app, owner.cookie, { longUrl: 'https://nomalo.example/x' });
    expect((await visit(before.shortCode)).statusCode).toBe(302);
    const put = await call(t.app, admin.cookie, 'PUT', '/api/admin/settings', { signup: 'open', blockedDomains: ['MALO.example.'] });
    expect(put.json()).toEqual({ signup: 'open', blockedDomains: ['malo.example'], signupFromEnvironment: null });

    const gone = await visit(before.shortCode);
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain(visitorMessages.disabledTitle);
    expect((await visit(elsewhere.shortCode)).statusCode).toBe(302);
    const refused = await postLink(t.app, owner.cookie, { title: 'x', longUrl: 'https://malo.example/' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields.longUrl).toEqual([m.domainBlocked]);
    const edit = await call(t.app, owner.cookie, 'PATCH', `/api/links/${elsewhere.id}`, { longUrl: 'https://a.b.malo.example/' });
    expect(edit.json().error.fields.longUrl).toEqual([m.domainBlocked]);

    await call(t.app, admin.cookie, 'PUT', '/api/admin/settings', { signup: 'open', blockedDomains: [] });
    expect((await visit(before.shortCode)).statusCode).toBe(302);
    const bad = await call(t.app, admin.cookie, 'PUT', '/api/admin/settings', { signup: 'open', blockedDomains: ['no es un dominio'] });
    expect(bad.statusCode).toBe(400);
  });

  it('takes abuse reports from anyone, a few per hour per address, and lists them with their link and owner', async () => {
    const owner = await registerUser(t.app);
    const link = await createLinkAs(t.app, owner.cookie, { longUrl: 'https://denunciado.example/' });
    const report = (address: string, remoteAddress = '203.0.113.9') =>
      t.app.inject({ method: 'POST', url: '/api/reports', remoteAddress, payload: { address, reason: 'Suplanta a mi banco', email: '' } });
    expect((await report(link.shortLink)).statusCode).toBe(202);
    expect((await report('http://localhost:3000/no-existe-zz')).statusCode).toBe(202);
    expect((await report(link.shortCode)).statusCode).toBe(202);
    const limited = await report(link.shortCode);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await report(link.shortCode, '203.0.113.10')).statusCode).toBe(202);

    const { reports } = (await call(t.app, admin.cookie, 'GET', '/api/admin/reports')).json();
    expect(reports[0]).toEqual(
      expect.objectContaining({
        address: link.shortCode,
        reason: 'Suplanta a mi banco',
        link: expect.objectContaining({ id: link.id, originalUrl: 'https://denunciado.example/', owner: { id: owner.user.id, email: owner.user.email } }),
      }),
    );
    expect((await call(t.app, owner.cookie, 'GET', '/api/admin/reports')).statusCode).toBe(403);
    expect((await call(t.app, undefined, 'GET', '/api/admin/reports')).statusCode).toBe(401);
  });

  it('answers a report the same whether its address is a link here or not, and keeps both', async () => {
    const owner = await registerUser(t.app);
    const link = await createLinkAs(t.app, owner.cookie, { longUrl: 'https://existe.example/' });
    const report = (address: string, remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: '/api/reports', remoteAddress, payload: { address, reason: 'Phishing', email: '' } });
    const known = await report(link.shortLink, '198.51.100.21');
    const unknown = await report('http://localhost:3000/no-existe-zz', '198.51.100.22');
    const whatTells = (answer: typeof known) => {
      const { date: _date, ...headers } = answer.headers;
      return { status: answer.statusCode, body: answer.body, headers };
    };
    expect(whatTells(unknown)).toEqual(whatTells(known));
    expect(known.statusCode).toBe(202);
    // Both count against the client's hour alike: the fourth of three is refused either way.
    for (const address of [link.shortCode, 'otra-que-no-existe', 'tampoco-existe']) {
      expect((await report(address, '198.51.100.23')).statusCode).toBe(202);
    }
    expect((await report('ni-esta', '198.51.100.23')).statusCode).toBe(429);

    const { reports } = (await call(t.app, admin.cookie, 'GET', '/api/admin/reports')).json();
    const byAddress = new Map(reports.map((r: { address: string; link: unknown }) => [r.address, r.link]));
    expect(byAddress.get('http://localhost:3000/no-existe-zz')).toBeNull();
    expect(byAddress.get(link.shortLink)).toEqual(expect.objectContaining({ id: link.id }));
  });
});
