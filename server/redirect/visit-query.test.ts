import { describe, expect, it } from 'vitest';
import { visitQuery } from './visit-query';

describe("a visit's query string", () => {
  const plain = { id: 1, url: 'https://e.com/p?a=1#top' };
  const forwarding = { ...plain, forwardQuery: true as const };

  it('marks qr=1 (and only that) as a scan, and leaves a link that does not forward where it was', () => {
    expect(visitQuery('qr=1', plain)).toEqual({ scan: true, location: undefined });
    expect(visitQuery('utm_source=x&qr=1&b=2', plain)).toEqual({ scan: true, location: undefined });
    for (const query of ['qr=0', 'qr', 'qr=11', 'aqr=1', 'fbclid=abc', '']) expect(visitQuery(query, plain)).toEqual({ scan: false, location: undefined });
  });

  it('merges the rest into the destination of a link that forwards, never qr, encoding what a header cannot carry', () => {
    expect(visitQuery('qr=1', forwarding)).toEqual({ scan: true, location: undefined });
    expect(visitQuery('a=2&qr=1&z', forwarding)).toEqual({ scan: true, location: 'https://e.com/p?a=2&z#top' });
    expect(visitQuery('q=b c&ñ=1', forwarding).location).toBe('https://e.com/p?a=1&q=b%20c&%C3%B1=1#top');
    expect(visitQuery('q=1#frag', forwarding).location).toBe('https://e.com/p?a=1&q=1#top');
  });
});
