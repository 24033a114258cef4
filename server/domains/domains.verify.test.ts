import { domainMessages as m } from '@common/domains/domain-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../admin/admin-test-support';
import { type Dnsmasq, dnsmasqMissing, startDnsmasq, txt } from '../test/dnsmasq';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { person, type Person } from '../workspaces/workspaces.test-support';
import { addDomainAs, domainCall } from './domains.test-support';

// POST /api/domains/:id/verify against a real DNS server (dnsmasq, through DNS_SERVERS): the record
// missing, holding another value, holding the right one; and a server that refuses.

const missing = dnsmasqMissing();
if (missing) console.warn(`domains.verify.test skipped: ${missing}`);

describe.skipIf(missing).each(testDialects)('verifying a domain by its TXT record on %s', (dialect) => {
  let dns: Dnsmasq;
  let t: TestApp;
  let ana: Person;
  beforeAll(async () => {
    dns = await startDnsmasq([]);
    t = await createTestApp(dialect, { DNS_SERVERS: dns.address, AUTH_RATE_LIMIT_IP: '0' });
    ana = await person(t.app, 'Ana');
  });
  afterAll(async () => {
    await t?.close();
    await dns?.stop();
  });

  const verify = (id: number, cookie = ana.cookie) => domainCall(t.app, cookie, 'POST', `/api/domains/${id}/verify`);

  it('says the record is missing, then what it holds instead, then verifies it once it is right', async () => {
    const domain = await addDomainAs(t.app, ana.cookie, `go-${dialect}.empresa.test`);
    const { name, value } = domain.verification;

    const none = await verify(domain.id);
    expect(none.statusCode).toBe(409);
    expect(none.json().error.message).toBe(m.recordMissing(name));

    await dns.setRecords([txt(name, 'corto-verify=de-otro-sitio'), txt(name, 'x'.repeat(120))]);
    const wrong = await verify(domain.id);
    expect(wrong.statusCode).toBe(409);
    const message: string = wrong.json().error.message;
    expect(message).toContain('«corto-verify=de-otro-sitio»');
    expect(message).toContain(`«${'x'.repeat(80)}…»`);
    expect(message).not.toContain('x'.repeat(81));
    expect(t.app.appContext.hostedDomains.byId(domain.id)?.verified).toBe(false);

    // The value split in two strings, as a DNS panel may store it.
    await dns.setRecords([txt(name, 'v=spf1 -all'), txt(name, value.slice(0, 10), value.slice(10))]);
    const right = await verify(domain.id);
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json().domain).toMatchObject({ id: domain.id, verified: true });
    expect(Date.parse(right.json().domain.verifiedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(t.app.appContext.hostedDomains.byId(domain.id)?.verified).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `/api/domains/tls-allowed?domain=${domain.hostname}` })).statusCode).toBe(200);

    // Proved once is proved: the record may go.
    await dns.setRecords([]);
    const again = await verify(domain.id);
    expect(again.statusCode).toBe(200);
    expect(again.json().domain.verifiedAt).toBe(right.json().domain.verifiedAt);

    const personal = (await call(t.app, ana.cookie, 'GET', '/api/workspaces')).json().workspaces.find((w: { personal: boolean }) => w.personal);
    const { entries } = (await call(t.app, ana.cookie, 'GET', `/api/workspaces/${personal.slug}/activity`)).json();
    expect(entries.filter((entry: { action: string }) => entry.action === 'domain.verified')).toHaveLength(1);
  });

  it('says the lookup failed, with a 409 and never a 5xx, when the DNS server refuses', async () => {
    // Outside the zone dnsmasq answers for, with no upstream: it refuses.
    const domain = await addDomainAs(t.app, ana.cookie, `go-${dialect}.empresa.org`);
    const response = await verify(domain.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe(m.lookupFailed(domain.verification.name));
  });

  it('finds nothing to verify in another workspace', async () => {
    const other = await person(t.app, 'Otra');
    const domain = await addDomainAs(t.app, ana.cookie, `ajeno-${dialect}.empresa.test`);
    expect((await verify(domain.id, other.cookie)).statusCode).toBe(404);
  });
});
