import { createHash, randomBytes } from 'node:crypto';

// Unique visitors without keeping anyone's address: a hash of IP and user agent with a salt that
// is random, held only in memory and replaced every UTC day, so yesterday's hashes cannot be
// matched to today's, nor reversed by trying every IPv4 address. The price: a restart mid-day
// (or a second instance) draws another salt, so a visitor may be counted again that day.

const DAY_MS = 86_400_000;

export function dayOf(epochMs: number): number {
  return Math.floor(epochMs / DAY_MS);
}

export function createVisitorHasher() {
  const salts = new Map<number, Buffer>();
  // The same visitor clicks in bursts: remember recent hashes rather than hashing each click.
  const recent = new Map<string, string>();
  return (day: number, ip: string, userAgent: string | undefined): string => {
    const key = `${day}\u0000${ip}\u0000${userAgent ?? ''}`;
    const known = recent.get(key);
    if (known) return known;
    let salt = salts.get(day);
    if (!salt) {
      salt = randomBytes(32);
      salts.set(day, salt);
      // Keep yesterday's salt for clicks queued just before midnight; forget older ones.
      for (const saltDay of salts.keys()) if (saltDay < day - 1) salts.delete(saltDay);
    }
    const hash = createHash('sha256')
      .update(salt)
      .update(ip)
      .update('\0')
      .update(userAgent ?? '')
      .digest('base64url')
      .slice(0, 22);
    if (recent.size >= 10_000) recent.clear();
    recent.set(key, hash);
    return hash;
  };
}
