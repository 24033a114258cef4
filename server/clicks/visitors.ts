import { createHash, randomBytes } from 'node:crypto';

// Unique visitors without keeping anyone's address: a hash of IP and user agent with a salt that
// is random, held only in memory and replaced every UTC day, so yesterday's hashes cannot be
// matched to today's, nor reversed by trying every IPv4 address. The price: a restart mid-day
// (or a second instance) draws another salt, so a visitor may be counted again that day.

export const DAY_MS = 86_400_000;

export function dayOf(epochMs: number): number {
  return Math.floor(epochMs / DAY_MS);
}

export function createVisitorHasher() {
  const salts = new Map<number, Buffer>();
  return (day: number, ip: string, userAgent: string | undefined): string => {
    let salt = salts.get(day);
    if (!salt) {
      salt = randomBytes(32);
      salts.set(day, salt);
      // Keep yesterday's salt for clicks queued just before midnight; forget older ones.
      for (const saltDay of salts.keys()) if (saltDay < day - 1) salts.delete(saltDay);
    }
    return createHash('sha256')
      .update(salt)
      .update(ip)
      .update('\0')
      .update(userAgent ?? '')
      .digest('base64url')
      .slice(0, 22);
  };
}
