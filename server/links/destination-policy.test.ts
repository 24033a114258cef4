import { linkMessages as m } from '@common/links/link-messages';
import { createLinkSchema } from '@common/links/link-schemas';
import { describe, expect, it } from 'vitest';
import { destinationProblem } from './destination-policy';

const policy = { publicBaseUrl: 'https://corto.example', allowPrivate: false };
/** As the create route sees it: through the schema, which stores the URL standard's form. */
const problemOf = (longUrl: string, options = policy) =>
  destinationProblem(createLinkSchema.parse({ title: 't', longUrl }).longUrl, options);

describe('destinationProblem', () => {
  it('refuses loopback, private, link-local and similar addresses, in every spelling the URL parser reads', () => {
    for (const longUrl of [
      'http://127.0.0.1/', 'http://127.1.2.3:8080/admin', 'http://0x7f.1/', 'http://2130706433/', 'http://0177.0.0.1/',
      'http://0.0.0.0/', 'http://10.0.0.1/', 'http://172.16.5.4/', 'http://192.168.1.1/router', 'http://169.254.169.254/latest/meta-data',
      'http://100.64.0.1/', 'http://255.255.255.255/', 'http://224.0.0.1/',
      'http://[::1]/', 'http://[::]/', 'http://[fe80::1]/', 'http://[fd00::1]/', 'http://[fc12:3456::1]/',
      'http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'http://[::ffff:192.168.0.1]/', 'http://[::ffff:0:10.0.0.1]/',
      'http://[64:ff9b::7f00:1]/', 'http://[::127.0.0.1]/', 'http://[2002:c0a8:101::1]/',
      'http://localhost/', 'http://LOCALHOST:3000/', 'http://localhost./', 'http://app.localhost/', 'http://impresora.local/',
      'http://router.home.arpa/', 'http://wiki.internal/',
    ]) {
      expect(problemOf(longUrl), longUrl).toBe(m.longUrlPrivate);
    }
  });

  it('accepts public addresses and names, and names that merely look local', () => {
    for (const longUrl of [
      'https://example.com/', 'http://8.8.8.8/', 'http://[2606:4700:4700::1111]/', 'http://[::ffff:8.8.8.8]/',
      'https://localhost.example.com/', 'https://local.example/', 'https://mi-localhost.es/', 'https://192.168.1.1.example.com/',
      'https://sub.corto.example/', 'https://corto.example.org/',
    ]) {
      expect(problemOf(longUrl), longUrl).toBeUndefined();
    }
  });

  it("refuses this instance's own host, whatever the path, port, scheme or case", () => {
    for (const longUrl of [
      'https://corto.example/abc123', 'https://corto.example/', 'https://CORTO.example./Mi-Alias', 'http://corto.example/abc123',
      'https://corto.example:8443/abc123', 'https://corto.example/%61bc123', 'https://corto.example/dashboard',
    ]) {
      expect(problemOf(longUrl), longUrl).toBe(m.longUrlThisInstance);
    }
    expect(problemOf('http://127.0.0.1:4173/abc123', { publicBaseUrl: 'http://127.0.0.1:4173', allowPrivate: false })).toBe(
      m.longUrlThisInstance,
    );
  });

  it('allows all of them with ALLOW_PRIVATE_DESTINATIONS', () => {
    const intranet = { ...policy, allowPrivate: true };
    for (const longUrl of ['http://127.0.0.1/', 'http://192.168.1.1/', 'http://wiki.internal/', 'https://corto.example/abc123']) {
      expect(problemOf(longUrl, intranet)).toBeUndefined();
    }
  });
});
