import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../admin/admin-test-support';
import { startTlsFront, hasCaddyAndPebble, type TlsFront } from '../test/caddy-pebble';
import { type Dnsmasq, dnsmasqMissing, startDnsmasq, txt } from '../test/dnsmasq';
import { createTestApp, type TestApp } from '../test/test-app';
import { type Person, person } from '../workspaces/workspaces.test-support';

// Automatic HTTPS for real: the shipped deploy/Caddyfile run by Debian's Caddy in front of a
// listening Corto, certificates from Pebble (an ACME test CA) in Let's Encrypt's place, the
// domain proved against a real DNS server (dnsmasq). A name gets a certificate only when Corto's
// tls-allowed says it may: a verified domain, or the instance's own host.

const missing = !hasCaddyAndPebble ? 'caddy, pebble or openssl is not installed (apt-get install -y caddy pebble openssl)' : dnsmasqMissing();
if (missing) console.warn(`caddy-https.test skipped: ${missing}`);

describe.skipIf(missing !== undefined)('HTTPS for custom domains through Caddy and Pebble', () => {
  let dns: Dnsmasq;
  let t: TestApp;
  let front: TlsFront;
  let owner: Person;

  beforeAll(async () => {
    dns = await startDnsmasq([]);
    t = await createTestApp('sqlite', { PUBLIC_BASE_URL: 'https://corto.test', DNS_SERVERS: dns.address, TRUST_PROXY: '1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    front = await startTlsFront((t.app.server.address() as AddressInfo).port);
    owner = await person(t.app);
  }, 60_000);
  afterAll(async () => {
    await front?.stop();
    await t?.close();
    await dns?.stop();
  });

  /** POST /api/domains, then the TXT record served and POST verify: the domain, verified. */
  async function verifiedDomain(hostname: string) {
    const added = await call(t.app, owner.cookie, 'POST', '/api/domains', { hostname });
    expect(added.statusCode, added.body).toBe(201);
    const { domain } = added.json();
    await dns.setRecords([txt(domain.verification.name, domain.verification.value)]);
    const verified = await call(t.app, owner.cookie, 'POST', `/api/domains/${domain.id}/verify`);
    expect(verified.statusCode, verified.body).toBe(200);
    return domain as { id: number; hostname: string };
  }

  it('gives a verified domain a certificate on its first visit, and its link redirects over HTTPS', async () => {
    await verifiedDomain('go.empresa.test');
    const created = await call(t.app, owner.cookie, 'POST', '/api/links', {
      title: 'Oferta',
      longUrl: 'https://ejemplo.com/oferta',
      customUrl: 'oferta',
      domain: 'go.empresa.test',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().link.shortLink).toBe('https://go.empresa.test/oferta');

    const visit = await front.get('go.empresa.test', '/oferta');
    expect(visit.issuer).toMatch(/^Pebble/);
    expect(visit.status).toBe(302);
    expect(visit.headers.location).toBe('https://ejemplo.com/oferta');
    // The instance's own codes do not answer on the domain, over HTTPS either.
    expect((await front.get('go.empresa.test', '/api/health')).status).toBe(404);
  }, 60_000);

  it("gives the instance's own host a certificate too", async () => {
    const health = await front.get('corto.test', '/api/health');
    expect(health.issuer).toMatch(/^Pebble/);
    expect(health.status).toBe(200);
  }, 60_000);

  it('gives no certificate to a domain added but not verified, to one deleted, or to a name nobody added', async () => {
    const pending = await call(t.app, owner.cookie, 'POST', '/api/domains', { hostname: 'pendiente.empresa.test' });
    expect(pending.statusCode).toBe(201);
    const deleted = await verifiedDomain('borrado.empresa.test');
    expect((await call(t.app, owner.cookie, 'DELETE', `/api/domains/${deleted.id}`)).statusCode).toBe(204);

    for (const hostname of ['pendiente.empresa.test', 'borrado.empresa.test', 'nadie.empresa.test']) {
      await expect(front.get(hostname, '/'), hostname).rejects.toThrow(/alert|EPROTO|socket hang up|ECONNRESET/i);
    }
    // Refused before any certificate was asked of the CA, while the verified names got theirs.
    const obtained = [...front.log().matchAll(/certificate obtained successfully","identifier":"([^"]+)"/g)].map((match) => match[1]);
    expect(obtained).toContain('go.empresa.test');
    for (const hostname of ['pendiente.empresa.test', 'borrado.empresa.test', 'nadie.empresa.test']) expect(obtained).not.toContain(hostname);
  }, 60_000);
});
