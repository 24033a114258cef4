import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { variantOfBucket } from '@common/rules/choose-destination';
import { bucketOfCookie, bucketOfVisitor, cameOverHttps, variantCookie } from './variant-bucket';

const day = Date.parse('2026-06-01T00:00:00Z');

/** A visitor of its own: a distinct address and agent. */
const visitorNumber = (n: number) => ({
  ip: n % 3 === 0 ? `2001:db8:${(n >> 16).toString(16)}::${(n & 0xffff).toString(16)}` : `${10 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}.${(n * 7) & 255}`,
  agent: `Mozilla/5.0 (Linux; Android ${10 + (n % 5)}; Phone ${n}) AppleWebKit/537.36 Chrome/${100 + (n % 30)}.0.0.0 Mobile Safari/537.36`,
});

describe('the A/B bucket', () => {
  it.each([
    [[70, 20, 10]],
    [[50, 50]],
    [[20, 20, 20, 20, 20]],
    [[97, 3]],
  ])('10,000 visitors split within 2 %% of the weights %j, on any link and day', (weights) => {
    const variants = weights.map((weight) => ({ weight }));
    for (const [linkId, at] of [
      [1, day],
      [4242, day + 86_400_000 * 17 + 5000],
    ] as const) {
      const counts = weights.map(() => 0);
      for (let n = 0; n < 10_000; n++) {
        const { ip, agent } = visitorNumber(n);
        counts[variantOfBucket(variants, bucketOfVisitor(ip, agent, at, linkId))]! += 1;
      }
      counts.forEach((count, index) => expect(Math.abs(count / 10_000 - weights[index]! / 100), `link ${linkId}, variant ${index}: ${count}`).toBeLessThanOrEqual(0.02));
    }
  });

  it('the same visitor, the same bucket all day; another day or another link draws again', () => {
    const { ip, agent } = visitorNumber(12);
    const bucket = bucketOfVisitor(ip, agent, day + 1000, 9);
    expect(bucketOfVisitor(ip, agent, day + 86_399_999, 9)).toBe(bucket);
    const drawn = new Set<number>();
    for (let d = 0; d < 20; d++) drawn.add(bucketOfVisitor(ip, agent, day + d * 86_400_000, 9));
    for (let link = 1; link < 20; link++) drawn.add(bucketOfVisitor(ip, agent, day, link));
    expect(drawn.size).toBeGreaterThan(15);
    // No agent at all is a visitor too.
    expect(bucketOfVisitor(ip, undefined, day, 9)).toBe(bucketOfVisitor(ip, '', day, 9));
  });

  it("reads the link's cookie among others, and only a bucket 0 to 99", () => {
    expect(bucketOfCookie(undefined, 12)).toBeUndefined();
    expect(bucketOfCookie('corto_ab_12=37', 12)).toBe(37);
    expect(bucketOfCookie('a=1; corto_ab_112=5; corto_ab_12=0; b=2', 12)).toBe(0);
    expect(bucketOfCookie('corto_ab_112=5', 12)).toBeUndefined();
    expect(bucketOfCookie('corto_ab_12=5', 1)).toBeUndefined();
    expect(bucketOfCookie('corto_ab_1=99;corto_ab_12=4', 12)).toBe(4);
    expect(bucketOfCookie('xcorto_ab_12=5', 12)).toBeUndefined();
    for (const bad of ['100', '-1', '', 'abc', '5x', '1.5', ' 7 7']) expect(bucketOfCookie(`corto_ab_12=${bad}`, 12), bad).toBeUndefined();
  });

  it('the cookie: 30 days, HttpOnly, SameSite=Lax, the whole host; Secure over HTTPS', () => {
    expect(variantCookie(12, 37, false)).toBe('corto_ab_12=37; Max-Age=2592000; Path=/; HttpOnly; SameSite=Lax');
    expect(variantCookie(12, 37, true)).toBe('corto_ab_12=37; Max-Age=2592000; Path=/; HttpOnly; SameSite=Lax; Secure');
    const request = (headers: Record<string, string>, encrypted = false) => ({ headers, socket: { encrypted } }) as unknown as IncomingMessage;
    expect(cameOverHttps(request({}), false)).toBe(false);
    expect(cameOverHttps(request({}), true)).toBe(true);
    expect(cameOverHttps(request({}, true), false)).toBe(true);
    expect(cameOverHttps(request({ 'x-forwarded-proto': 'https' }), false)).toBe(true);
    expect(cameOverHttps(request({ 'x-forwarded-proto': 'http' }), false)).toBe(false);
  });
});
