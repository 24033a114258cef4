import { describe, expect, it } from 'vitest';
import { newShortCode } from './short-code';

describe('newShortCode', () => {
  it('draws 6 base-36 characters, lowercase, and does not repeat itself', () => {
    const codes = Array.from({ length: 2000 }, newShortCode);
    for (const code of codes) expect(code).toMatch(/^[0-9a-z]{6}$/);
    // 2000 draws from 2.2 billion: a repeat would mean the generator is not random.
    expect(new Set(codes).size).toBe(codes.length);
    // Every one of the 36 characters turns up across 12,000 positions.
    expect(new Set(codes.join('')).size).toBe(36);
  });
});
