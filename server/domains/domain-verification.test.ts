import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dnsmasq, dnsmasqMissing, startDnsmasq, txt } from '../test/dnsmasq';
import { lookUpChallenge, newVerificationValue } from './domain-verification';

// The TXT lookup against a real DNS server (dnsmasq), as DNS_SERVERS points the app at one.

const missing = dnsmasqMissing();
if (missing) console.warn(`domain-verification.test skipped: ${missing}`);

describe('a verification value', () => {
  it('is corto-verify= and 16 random bytes in base64url', () => {
    const value = newVerificationValue();
    expect(value).toMatch(/^corto-verify=[A-Za-z0-9_-]{22}$/);
    expect(newVerificationValue()).not.toBe(value);
  });
});

describe.skipIf(missing)('looking the challenge up in DNS (dnsmasq)', () => {
  let dns: Dnsmasq;
  const long = 'x'.repeat(300);
  beforeAll(async () => {
    dns = await startDnsmasq([
      txt('_corto-challenge.bien.empresa.test', 'corto-verify=abc'),
      // One record in two chunks, as a value over 255 bytes (or a DNS panel) splits it.
      txt('_corto-challenge.trozos.empresa.test', 'corto-verify=', 'def'),
      txt('_corto-challenge.varios.empresa.test', 'v=spf1 -all'),
      txt('_corto-challenge.varios.empresa.test', 'corto-verify=ghi'),
      txt('_corto-challenge.mal.empresa.test', 'corto-verify=otro'),
      txt('_corto-challenge.largo.empresa.test', long.slice(0, 200), long.slice(200)),
    ]);
  });
  afterAll(async () => dns?.stop());

  const servers = () => [dns.address];

  it('finds the value, in one record among several, or split in chunks', async () => {
    expect(await lookUpChallenge('_corto-challenge.bien.empresa.test', 'corto-verify=abc', servers())).toEqual({ outcome: 'found' });
    expect(await lookUpChallenge('_corto-challenge.trozos.empresa.test', 'corto-verify=def', servers())).toEqual({ outcome: 'found' });
    expect(await lookUpChallenge('_corto-challenge.varios.empresa.test', 'corto-verify=ghi', servers())).toEqual({ outcome: 'found' });
  });

  it('says what it found instead, long values cut short', async () => {
    expect(await lookUpChallenge('_corto-challenge.mal.empresa.test', 'corto-verify=abc', servers())).toEqual({ outcome: 'wrong', found: ['corto-verify=otro'] });
    const result = await lookUpChallenge('_corto-challenge.largo.empresa.test', 'corto-verify=abc', servers());
    expect(result).toEqual({ outcome: 'wrong', found: [`${'x'.repeat(80)}…`] });
  });

  it('says nothing is there for a name without records', async () => {
    expect(await lookUpChallenge('_corto-challenge.nada.empresa.test', 'corto-verify=abc', servers())).toEqual({ outcome: 'missing' });
  });

  it('fails, without throwing, when the server refuses or nobody answers', async () => {
    // Outside the zones dnsmasq serves, with no upstream: REFUSED.
    expect(await lookUpChallenge('_corto-challenge.go.example.org', 'corto-verify=abc', servers())).toMatchObject({ outcome: 'failed' });
    const closed = await lookUpChallenge('_corto-challenge.bien.empresa.test', 'corto-verify=abc', ['127.0.0.1:1']);
    expect(closed).toMatchObject({ outcome: 'failed' });
  });

  it('reads the records again once dnsmasq serves others', async () => {
    const name = '_corto-challenge.cambia.empresa.test';
    expect(await lookUpChallenge(name, 'corto-verify=nuevo', servers())).toEqual({ outcome: 'missing' });
    await dns.setRecords([txt(name, 'corto-verify=nuevo')]);
    expect(await lookUpChallenge(name, 'corto-verify=nuevo', servers())).toEqual({ outcome: 'found' });
  });
});
