import { UNVERIFIED_CLAIM_DAYS, domainMessages as m } from '@common/domains/domain-messages';
import { adminMessages } from '@common/admin/admin-messages';
import { linkMessages } from '@common/links/link-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../admin/admin-test-support';
import { createLinkAs } from '../links/links.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { person, type Person, team, type Team } from '../workspaces/workspaces.test-support';
import { addDomainAs, domainCall, markVerified, postDomain, putLinkOn } from './domains.test-support';

// The workspace's side of custom domains (docs/domains.md): adding one (every bad spelling
// refused in Spanish), listing, the visitors' redirects, deleting, who may do each, two
// workspaces claiming one name at once, the limit, and tls-allowed.

const INSTANCE = 'corto.example.com';
let counter = 0;
const fresh = (label = 'go') => `${label}-${++counter}-${Date.now().toString(36)}.empresa.test`;

describe.each(testDialects)('custom domains of a workspace on %s', (dialect) => {
  let t: TestApp;
  let ana: Person;
  let crew: Team;
  beforeAll(async () => {
    t = await createTestApp(dialect, {
      PUBLIC_BASE_URL: `https://${INSTANCE}`,
      DOMAINS_PER_WORKSPACE: '3',
      AUTH_RATE_LIMIT_IP: '0',
      AUTH_RATE_LIMIT_EMAIL: '0',
      LINKS_PER_HOUR: '0',
    });
    ana = await person(t.app, 'Ana');
    crew = await team(t, `Equipo dominios ${dialect}`);
  });
  afterAll(async () => t?.close());

  it('adds a domain unverified, with the TXT record that proves it, and lists it', async () => {
    const hostname = fresh();
    const response = await postDomain(t.app, ana.cookie, hostname.toUpperCase());
    expect(response.statusCode, response.body).toBe(201);
    const { domain } = response.json();
    expect(domain).toMatchObject({
      hostname,
      displayHostname: hostname,
      verified: false,
      verifiedAt: null,
      verification: { type: 'TXT', name: `_corto-challenge.${hostname}` },
      rootRedirect: null,
      notFoundRedirect: null,
      disabled: false,
      links: 0,
    });
    expect(domain.verification.value).toMatch(/^corto-verify=[A-Za-z0-9_-]{22}$/);
    expect(Date.parse(domain.createdAt)).toBeGreaterThan(Date.now() - 60_000);

    const list = await domainCall(t.app, ana.cookie, 'GET', '/api/domains');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ domains: [domain], instanceHost: INSTANCE, limit: 3 });
    expect((await domainCall(t.app, ana.cookie, 'GET', `/api/domains/${domain.id}`)).json()).toEqual({ domain });
    // The registry every redirect reads knows it at once.
    expect(t.app.appContext.hostedDomains.byId(domain.id)).toMatchObject({ hostname, verified: false });
  });

  it('stores a Unicode name as punycode and shows it in Unicode', async () => {
    const unicode = `Empaña-${++counter}.Test`;
    const domain = await addDomainAs(t.app, ana.cookie, unicode);
    expect(domain.hostname).toMatch(/^xn--empaa-\d+-[a-z0-9]+\.test$/);
    expect(domain.displayHostname).toBe(unicode.toLowerCase());
    expect(domain.verification.name).toBe(`_corto-challenge.${domain.hostname}`);
    // The same name typed in punycode is the same name.
    const again = await postDomain(t.app, ana.cookie, domain.hostname);
    expect(again.statusCode).toBe(409);
    await domainCall(t.app, ana.cookie, 'DELETE', `/api/domains/${domain.id}`);
  });

  it('takes a final dot as the same name', async () => {
    const hostname = fresh();
    const domain = await addDomainAs(t.app, ana.cookie, `${hostname}.`);
    expect(domain.hostname).toBe(hostname);
    const again = await postDomain(t.app, ana.cookie, hostname);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(m.hostnameTaken);
    await domainCall(t.app, ana.cookie, 'DELETE', `/api/domains/${domain.id}`);
  });

  it.each([
    ['go.empresa.test:8080', m.hostnamePort],
    ['go.empresa.test:443', m.hostnamePort],
    ['https://go.empresa.test', m.hostnameOnlyName],
    ['go.empresa.test/ruta', m.hostnameOnlyName],
    ['go.empresa.test?x=1', m.hostnameOnlyName],
    ['ana@go.empresa.test', m.hostnameOnlyName],
    ['ana:clave@go.empresa.test', m.hostnameOnlyName],
    ['192.168.1.10', m.hostnameIp],
    ['8.8.8.8', m.hostnameIp],
    ['[::1]', m.hostnameIp],
    ['2001:db8::1', m.hostnameIp],
    ['*.empresa.test', m.hostnameWildcard],
    ['go.*.test', m.hostnameWildcard],
    // A Cyrillic «а» among Latin letters.
    ['p\u0430ypal.test', m.hostnameMixedScripts],
    [`${'a'.repeat(64)}.test`, m.hostnameLabelTooLong],
    [`${Array.from({ length: 5 }, () => 'a'.repeat(60)).join('.')}.test`, m.hostnameTooLong],
    ['localhost', m.hostnameNeedsDot],
    ['empresa', m.hostnameNeedsDot],
    ['go..empresa.test', m.hostnameInvalid],
    ['-go.empresa.test', m.hostnameInvalid],
    ['go_1.empresa.test', m.hostnameInvalid],
    ['go.empresa.test..', m.hostnameInvalid],
    ['', m.hostnameRequired],
    ['   ', m.hostnameRequired],
  ])('refuses %j in Spanish', async (hostname, message) => {
    const response = await postDomain(t.app, ana.cookie, hostname);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.fields.hostname).toEqual([message]);
  });

  it('refuses a body that is no name at all', async () => {
    for (const body of [{}, { hostname: 42 }, { hostname: null }, { hostname: ['a.test'] }, { hostname: 'a.test', extra: 1 }]) {
      const response = await call(t.app, ana.cookie, 'POST', '/api/domains', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it("refuses the instance's own host and the names under it", async () => {
    for (const [hostname, message] of [
      [INSTANCE, m.hostnameInstance],
      ['CORTO.Example.com.', m.hostnameInstance],
      [`www.${INSTANCE}`, m.hostnameUnderInstance],
      [`a.b.${INSTANCE}`, m.hostnameUnderInstance],
    ]) {
      const response = await postDomain(t.app, ana.cookie, hostname);
      expect(response.statusCode, hostname).toBe(400);
      expect(response.json().error.fields.hostname).toEqual([message]);
    }
    // A sibling or the parent is someone's own business.
    const sibling = await addDomainAs(t.app, ana.cookie, `otro-${++counter}.example.com`);
    await domainCall(t.app, ana.cookie, 'DELETE', `/api/domains/${sibling.id}`);
  });

  it('refuses a blocked domain and the names under it', async () => {
    await t.app.appContext.blockedDomains.replace(['mal.test']);
    try {
      for (const hostname of ['mal.test', 'go.mal.test', 'GO.MAL.test.']) {
        const response = await postDomain(t.app, ana.cookie, hostname);
        expect(response.statusCode, hostname).toBe(400);
        expect(response.json().error.fields.hostname).toEqual([m.hostnameBlocked]);
      }
      const unrelated = await addDomainAs(t.app, ana.cookie, `nomal-${++counter}.test`);
      await domainCall(t.app, ana.cookie, 'DELETE', `/api/domains/${unrelated.id}`);
    } finally {
      await t.app.appContext.blockedDomains.replace([]);
    }
  });

  it(`lets another workspace add a name claimed but not verified for ${UNVERIFIED_CLAIM_DAYS} days, never one verified`, async () => {
    const other = await person(t.app, 'Recién llegada');
    const hostname = fresh('olvidado');
    const claimed = await addDomainAs(t.app, ana.cookie, hostname);
    const early = await postDomain(t.app, other.cookie, hostname);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(m.hostnameClaimed);
    // The claim grows old without a TXT record.
    const old = Date.now() - (UNVERIFIED_CLAIM_DAYS * 24 + 1) * 60 * 60 * 1000;
    await t.database.db.updateTable('domains').set({ created_at: old }).where('id', '=', claimed.id).execute();
    const taken = await postDomain(t.app, other.cookie, hostname);
    expect(taken.statusCode, taken.body).toBe(201);
    expect(await t.database.db.selectFrom('domains').select('id').where('hostname', '=', hostname).execute()).toEqual([{ id: taken.json().domain.id }]);
    expect(t.app.appContext.hostedDomains.byId(claimed.id)).toBeUndefined();
    // A verified name stays its workspace's, however old.
    await t.database.db.updateTable('domains').set({ created_at: old, verified_at: old }).where('id', '=', taken.json().domain.id).execute();
    const again = await postDomain(t.app, ana.cookie, hostname);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(m.hostnameTaken);
    await t.database.db.deleteFrom('domains').where('hostname', '=', hostname).execute();
  });

  it('gives a name to one workspace only: two claiming it at once, exactly one wins', async () => {
    const other = await person(t.app, 'Otra');
    for (let round = 0; round < 3; round++) {
      const hostname = fresh('carrera');
      const answers = await Promise.all([postDomain(t.app, ana.cookie, hostname), postDomain(t.app, other.cookie, hostname)]);
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses, answers.map((answer) => answer.body).join(' | ')).toEqual([201, 409]);
      expect(answers.find((answer) => answer.statusCode === 409)!.json().error.message).toBe(m.hostnameClaimed);
      const rows = await t.database.db.selectFrom('domains').select('workspace_id').where('hostname', '=', hostname).execute();
      expect(rows).toHaveLength(1);
      const winner = answers.find((answer) => answer.statusCode === 201)!.json().domain;
      const cookie = answers[0]!.statusCode === 201 ? ana.cookie : other.cookie;
      expect((await domainCall(t.app, cookie, 'DELETE', `/api/domains/${winner.id}`)).statusCode).toBe(204);
    }
  });

  it('holds a workspace to DOMAINS_PER_WORKSPACE', async () => {
    const bea = await person(t.app, 'Bea');
    const added = [];
    for (let i = 0; i < 3; i++) added.push(await addDomainAs(t.app, bea.cookie, fresh('limite')));
    const fourth = await postDomain(t.app, bea.cookie, fresh('limite'));
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json().error.message).toBe(m.tooMany(3));
    // Another workspace has its own three.
    const other = await addDomainAs(t.app, crew.admin.cookie, fresh('limite'), crew.workspace.slug);
    await domainCall(t.app, crew.admin.cookie, 'DELETE', `/api/domains/${other.id}`, crew.workspace.slug);
    // One removed makes room again.
    await domainCall(t.app, bea.cookie, 'DELETE', `/api/domains/${added[0]!.id}`);
    expect((await postDomain(t.app, bea.cookie, fresh('limite'))).statusCode).toBe(201);
  });

  it('lets admins and owners manage the domains and every member list them', async () => {
    const slug = crew.workspace.slug;
    for (const who of [crew.viewer, crew.editor]) {
      const response = await postDomain(t.app, who.cookie, fresh('rol'), slug);
      expect(response.statusCode).toBe(403);
    }
    expect((await postDomain(t.app, crew.outsider.cookie, fresh('rol'), slug)).statusCode).toBe(404);
    const domain = await addDomainAs(t.app, crew.admin.cookie, fresh('rol'), slug);
    for (const who of [crew.viewer, crew.editor, crew.admin, crew.owner]) {
      const list = await domainCall(t.app, who.cookie, 'GET', '/api/domains', slug);
      expect(list.statusCode).toBe(200);
      expect(list.json().domains.map((d: { id: number }) => d.id)).toContain(domain.id);
    }
    for (const who of [crew.viewer, crew.editor]) {
      expect((await domainCall(t.app, who.cookie, 'PATCH', `/api/domains/${domain.id}`, slug, { rootRedirect: null })).statusCode).toBe(403);
      expect((await domainCall(t.app, who.cookie, 'POST', `/api/domains/${domain.id}/verify`, slug)).statusCode).toBe(403);
      expect((await domainCall(t.app, who.cookie, 'DELETE', `/api/domains/${domain.id}`, slug)).statusCode).toBe(403);
    }
    // Another workspace's domain is not found from one's own.
    expect((await domainCall(t.app, ana.cookie, 'GET', `/api/domains/${domain.id}`)).statusCode).toBe(404);
    expect((await domainCall(t.app, ana.cookie, 'DELETE', `/api/domains/${domain.id}`)).statusCode).toBe(404);
    expect((await domainCall(t.app, ana.cookie, 'GET', '/api/domains')).json().domains.map((d: { id: number }) => d.id)).not.toContain(domain.id);
    expect((await domainCall(t.app, crew.owner.cookie, 'DELETE', `/api/domains/${domain.id}`, slug)).statusCode).toBe(204);
  });

  it('records additions and deletions in the activity', async () => {
    const slug = crew.workspace.slug;
    const hostname = fresh('actividad');
    const domain = await addDomainAs(t.app, crew.admin.cookie, hostname, slug);
    await domainCall(t.app, crew.admin.cookie, 'DELETE', `/api/domains/${domain.id}`, slug);
    const { entries } = (await call(t.app, crew.owner.cookie, 'GET', `/api/workspaces/${slug}/activity`)).json();
    expect(entries.slice(0, 2)).toMatchObject([
      { action: 'domain.deleted', target: hostname, actor: { id: crew.admin.id } },
      { action: 'domain.added', target: hostname, actor: { id: crew.admin.id } },
    ]);
  });

  it("sets and clears where the domain's root and unknown codes send visitors, by the links' destination rules", async () => {
    const hostname = fresh('redir');
    const domain = await addDomainAs(t.app, ana.cookie, hostname);
    const patch = (body: Record<string, unknown>) => domainCall(t.app, ana.cookie, 'PATCH', `/api/domains/${domain.id}`, undefined, body);

    const set = await patch({ rootRedirect: 'https://empresa.test/bienvenida', notFoundRedirect: 'https://empresa.test/404' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().domain).toMatchObject({ rootRedirect: 'https://empresa.test/bienvenida', notFoundRedirect: 'https://empresa.test/404' });
    expect(t.app.appContext.hostedDomains.byId(domain.id)).toMatchObject({ rootRedirect: 'https://empresa.test/bienvenida' });

    // Only what is sent changes; null (or '') clears.
    const cleared = await patch({ notFoundRedirect: null });
    expect(cleared.json().domain).toMatchObject({ rootRedirect: 'https://empresa.test/bienvenida', notFoundRedirect: null });
    expect((await patch({ rootRedirect: '' })).json().domain.rootRedirect).toBeNull();
    expect(t.app.appContext.hostedDomains.byId(domain.id)?.rootRedirect).toBeNull();
    // The root may send visitors to one of the domain's own links.
    expect((await patch({ rootRedirect: `https://${hostname}/promo` })).statusCode).toBe(200);

    await t.app.appContext.blockedDomains.replace(['mal.test']);
    try {
      for (const [body, field, message] of [
        [{ rootRedirect: 'ftp://empresa.test/' }, 'rootRedirect', m.redirectInvalid],
        [{ rootRedirect: 'no es una url' }, 'rootRedirect', m.redirectInvalid],
        [{ notFoundRedirect: 'javascript:alert(1)' }, 'notFoundRedirect', m.redirectInvalid],
        [{ rootRedirect: 'http://127.0.0.1/admin' }, 'rootRedirect', linkMessages.longUrlPrivate],
        [{ notFoundRedirect: 'http://192.168.1.1/' }, 'notFoundRedirect', linkMessages.longUrlPrivate],
        [{ rootRedirect: `https://${INSTANCE}/abc` }, 'rootRedirect', linkMessages.longUrlThisInstance],
        [{ rootRedirect: 'https://go.mal.test/' }, 'rootRedirect', adminMessages.domainBlocked],
        [{ rootRedirect: `https://${hostname}/` }, 'rootRedirect', m.redirectLoop],
        [{ notFoundRedirect: `https://${hostname.toUpperCase()}/otra` }, 'notFoundRedirect', m.redirectLoop],
      ] as const) {
        const response = await patch(body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().error.fields[field], JSON.stringify(body)).toEqual([message]);
      }
    } finally {
      await t.app.appContext.blockedDomains.replace([]);
    }
    expect((await patch({ other: 1 })).statusCode).toBe(400);
    expect((await domainCall(t.app, ana.cookie, 'PATCH', '/api/domains/999999', undefined, { rootRedirect: null })).statusCode).toBe(404);
  });

  it('refuses to delete a domain links use, saying how many', async () => {
    const domain = await addDomainAs(t.app, ana.cookie, fresh('uso'));
    await markVerified(t, domain.id);
    const one = await createLinkAs(t.app, ana.cookie, { longUrl: 'https://example.com/uno' });
    const two = await createLinkAs(t.app, ana.cookie, { longUrl: 'https://example.com/dos' });
    await putLinkOn(t, one.id, domain.id);
    const refused = await domainCall(t.app, ana.cookie, 'DELETE', `/api/domains/${domain.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(m.inUse(1));
    await putLinkOn(t, two.id, domain.id);
    expect((await domainCall(t.app, ana.cookie, 'DELETE', `/api/domains/${domain.id}`)).json().error.message).toBe(m.inUse(2));
    expect((await domainCall(t.app, ana.cookie, 'GET', `/api/domains/${domain.id}`)).json().domain.links).toBe(2);

    await putLinkOn(t, one.id, null);
    await putLinkOn(t, two.id, null);
    expect((await domainCall(t.app, ana.cookie, 'DELETE', `/api/domains/${domain.id}`)).statusCode).toBe(204);
    expect(t.app.appContext.hostedDomains.byId(domain.id)).toBeUndefined();
    expect((await domainCall(t.app, ana.cookie, 'DELETE', `/api/domains/${domain.id}`)).statusCode).toBe(404);
  });

  it('answers an id that names nothing with 404, never 5xx', async () => {
    for (const id of ['abc', '0', '-1', '99999999999999999999', '1.5', '%00']) {
      const response = await domainCall(t.app, ana.cookie, 'GET', `/api/domains/${id}`);
      expect(response.statusCode, id).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, id).toBeLessThan(500);
    }
  });

  describe('tls-allowed (Caddy asks before each certificate)', () => {
    const ask = (query: string) => t.app.inject({ method: 'GET', url: `/api/domains/tls-allowed${query}` });
    let cleo: Person;
    beforeAll(async () => {
      cleo = await person(t.app, 'Cleo');
    });

    it("says yes for the instance's own host and a verified domain, in any spelling, without a session", async () => {
      const domain = await addDomainAs(t.app, cleo.cookie, `Tls-${++counter}-Caña.test`);
      expect((await ask(`?domain=${domain.hostname}`)).statusCode).toBe(404);
      await markVerified(t, domain.id);
      for (const name of [INSTANCE, INSTANCE.toUpperCase(), `${INSTANCE}.`, domain.hostname, domain.hostname.toUpperCase(), `${domain.hostname}.`, domain.displayHostname]) {
        const response = await ask(`?domain=${encodeURIComponent(name)}`);
        expect(response.statusCode, name).toBe(200);
        expect(response.json()).toEqual({ allowed: true });
      }
    });

    it('still says yes for a domain the operator disabled: its visitors see the 410 page over HTTPS', async () => {
      const domain = await addDomainAs(t.app, cleo.cookie, fresh('tls'));
      await markVerified(t, domain.id);
      await t.database.db.updateTable('domains').set({ disabled_at: Date.now() }).where('id', '=', domain.id).execute();
      await t.app.appContext.hostedDomains.load();
      expect((await ask(`?domain=${domain.hostname}`)).statusCode).toBe(200);
    });

    it('says no to anything else, junk included, and never answers 5xx', async () => {
      const queries = [
        '',
        '?domain=',
        '?domain=desconocido.test',
        `?domain=www.${INSTANCE}`,
        '?domain=localhost',
        '?domain=127.0.0.1',
        '?domain=%5B%3A%3A1%5D',
        '?domain=%3A%3A1',
        `?domain=${INSTANCE}%3A443`,
        '?domain=*.empresa.test',
        '?domain=https%3A%2F%2Fcorto.example.com',
        '?domain=%00',
        '?domain=%C3%28',
        '?domain=a&domain=b',
        `?domain=${'a'.repeat(5000)}`,
        `?domain=${'a.'.repeat(300)}test`,
        '?domain[x]=1',
      ];
      for (const query of queries) {
        const response = await ask(query);
        expect(response.statusCode, query).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, query).toBeLessThan(500);
      }
    });
  });
});

describe.each(testDialects)('custom domains turned off (DOMAINS_PER_WORKSPACE=0) on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { DOMAINS_PER_WORKSPACE: '0', AUTH_RATE_LIMIT_IP: '0' });
  });
  afterAll(async () => t?.close());

  it('refuses additions and still lists, with a limit of 0', async () => {
    const ana = await person(t.app);
    const response = await postDomain(t.app, ana.cookie, 'go.empresa.test');
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe(m.customDomainsOff);
    const list = await domainCall(t.app, ana.cookie, 'GET', '/api/domains');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ domains: [], instanceHost: 'localhost', limit: 0 });
  });
});
