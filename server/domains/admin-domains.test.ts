import { domainMessages as m } from '@common/domains/domain-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerAdmin } from '../admin/admin-test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { person, type Person, team, type Team } from '../workspaces/workspaces.test-support';
import { addDomainAs, markVerified, putLinkOn } from './domains.test-support';
import { createLinkAs } from '../links/links.test-support';

// The operator's side: every workspace's domains in one list, and a domain disabled (its links
// answer 410, which the redirect decides from the registry) or enabled again, in the audit log.

describe.each(testDialects)("the operator's domains on %s", (dialect) => {
  let t: TestApp;
  let admin: { cookie: string; user: { id: number; email: string } };
  let ana: Person;
  let crew: Team;
  beforeAll(async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '0', AUTH_RATE_LIMIT_EMAIL: '0', LINKS_PER_HOUR: '0' });
    admin = await registerAdmin(t);
    ana = await person(t.app, 'Ana');
    crew = await team(t, `Zafiro ${dialect}`);
  });
  afterAll(async () => t?.close());

  it('lists every workspace\u2019s domains, newest first, with their workspace and links; searched by name or workspace', async () => {
    const mine = await addDomainAs(t.app, ana.cookie, `ana-${dialect}.empresa.test`);
    const theirs = await addDomainAs(t.app, crew.admin.cookie, `Caña-${dialect}.equipo.test`, crew.workspace.slug);
    await markVerified(t, theirs.id);
    const link = await createLinkAs(t.app, crew.admin.cookie, { longUrl: 'https://example.com/equipo' });
    await t.database.db.updateTable('urls').set({ workspace_id: crew.workspace.id }).where('id', '=', link.id).execute();
    await putLinkOn(t, link.id, theirs.id);

    const response = await call(t.app, admin.cookie, 'GET', '/api/admin/domains');
    expect(response.statusCode, response.body).toBe(200);
    const { domains, nextCursor } = response.json();
    expect(nextCursor).toBeNull();
    expect(domains.map((d: { id: number }) => d.id)).toEqual([theirs.id, mine.id]);
    expect(domains[0]).toMatchObject({
      id: theirs.id,
      hostname: theirs.hostname,
      displayHostname: `caña-${dialect}.equipo.test`,
      workspace: { id: crew.workspace.id, slug: crew.workspace.slug, name: crew.workspace.name },
      verified: true,
      disabled: false,
      disabledAt: null,
      links: 1,
    });
    expect(domains[1]).toMatchObject({ hostname: mine.hostname, verified: false, links: 0 });

    const search = async (q: string) =>
      (await call(t.app, admin.cookie, 'GET', `/api/admin/domains?q=${encodeURIComponent(q)}`)).json().domains.map((d: { id: number }) => d.id);
    expect(await search('ANA-')).toEqual([mine.id]);
    // A Unicode name is found by its whole label (what is stored is its punycode).
    expect(await search(`Caña-${dialect}.equipo`)).toEqual([theirs.id]);
    expect(await search('.equipo.test')).toEqual([theirs.id]);
    expect(await search(theirs.hostname)).toEqual([theirs.id]);
    expect(await search(crew.workspace.slug)).toEqual([theirs.id]);
    expect(await search('zafiro')).toEqual([theirs.id]);
    expect(await search('nada-de-esto')).toEqual([]);
    expect(await search('100%_')).toEqual([]);
  });

  it('disables a domain (every redirect learns it at once) and enables it again, in the audit log', async () => {
    const domain = await addDomainAs(t.app, ana.cookie, `desactivar-${dialect}.empresa.test`);
    await markVerified(t, domain.id);
    const patch = (body: Record<string, unknown>) => call(t.app, admin.cookie, 'PATCH', `/api/admin/domains/${domain.id}`, body);

    const off = await patch({ disabled: true, reason: 'Phishing' });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().domain).toMatchObject({ id: domain.id, disabled: true });
    const disabledAt = off.json().domain.disabledAt;
    expect(Date.parse(disabledAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(t.app.appContext.hostedDomains.byId(domain.id)?.disabled).toBe(true);
    // The workspace sees it disabled; tls-allowed still answers, for the 410 page over HTTPS.
    expect((await call(t.app, ana.cookie, 'GET', `/api/domains/${domain.id}`)).json().domain.disabled).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `/api/domains/tls-allowed?domain=${domain.hostname}` })).statusCode).toBe(200);

    // Disabled again: the first date stays.
    expect((await patch({ disabled: true })).json().domain.disabledAt).toBe(disabledAt);

    const on = await patch({ disabled: false });
    expect(on.json().domain).toMatchObject({ disabled: false, disabledAt: null });
    expect(t.app.appContext.hostedDomains.byId(domain.id)?.disabled).toBe(false);

    const { entries } = (await call(t.app, admin.cookie, 'GET', '/api/admin/audit')).json();
    expect(entries.slice(0, 3)).toMatchObject([
      { action: 'domain.enable', target: domain.hostname, detail: null },
      { action: 'domain.disable', target: domain.hostname, detail: null },
      { action: 'domain.disable', target: domain.hostname, detail: 'Phishing' },
    ]);
  });

  it('names a Unicode domain in the audit log with its punycode beside it', async () => {
    const domain = await addDomainAs(t.app, ana.cookie, `ñu-${dialect}.empresa.test`);
    await call(t.app, admin.cookie, 'PATCH', `/api/admin/domains/${domain.id}`, { disabled: true });
    const [entry] = (await call(t.app, admin.cookie, 'GET', '/api/admin/audit')).json().entries;
    expect(entry).toMatchObject({ action: 'domain.disable', target: `ñu-${dialect}.empresa.test (${domain.hostname})` });
  });

  it('refuses what is not a domain or not a change, and anyone who is not an admin', async () => {
    const missing = await call(t.app, admin.cookie, 'PATCH', '/api/admin/domains/999999', { disabled: true });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe(m.notFound);
    const domain = await addDomainAs(t.app, ana.cookie, `rechazos-${dialect}.empresa.test`);
    for (const body of [{}, { disabled: 'sí' }, { disabled: true, reason: 'x'.repeat(501) }, { disabled: true, other: 1 }]) {
      expect((await call(t.app, admin.cookie, 'PATCH', `/api/admin/domains/${domain.id}`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call(t.app, ana.cookie, 'GET', '/api/admin/domains')).statusCode).toBe(403);
    expect((await call(t.app, ana.cookie, 'PATCH', `/api/admin/domains/${domain.id}`, { disabled: true })).statusCode).toBe(403);
    expect((await call(t.app, undefined, 'GET', '/api/admin/domains')).statusCode).toBe(401);
    expect(t.app.appContext.hostedDomains.byId(domain.id)?.disabled).toBe(false);
  });

  it("forgets a deleted workspace's domains at once", async () => {
    const gone = await team(t, `Efímero ${dialect}`);
    const domain = await addDomainAs(t.app, gone.owner.cookie, `efimero-${dialect}.empresa.test`, gone.workspace.slug);
    await markVerified(t, domain.id);
    const response = await call(t.app, admin.cookie, 'DELETE', `/api/admin/workspaces/${gone.workspace.id}`);
    expect(response.statusCode, response.body).toBe(204);
    expect(t.app.appContext.hostedDomains.byId(domain.id)).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: `/api/domains/tls-allowed?domain=${domain.hostname}` })).statusCode).toBe(404);
  });
});
