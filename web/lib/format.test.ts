import { describe, expect, it } from 'vitest';
import { formatCount, formatDateTime, formatNumber, formatUtcDay, nouns } from './format';

describe('formatCount', () => {
  it('uses the singular for exactly one and the plural for everything else', () => {
    expect(formatCount(1, nouns.click)).toBe('1 clic');
    expect(formatCount(0, nouns.click)).toBe('0 clics');
    expect(formatCount(2, nouns.visitor)).toBe('2 visitantes');
    expect(formatCount(1, nouns.visitor)).toBe('1 visitante');
    expect(formatCount(1, nouns.link)).toBe('1 link');
    expect(formatCount(21, nouns.link)).toBe('21 links');
    // A million is Spanish's 'many' category: still the plural.
    expect(formatCount(1_000_000, nouns.click)).toBe('1.000.000 clics');
  });
});

describe('formatNumber', () => {
  it('groups thousands the Spanish way, whatever the default locale', () => {
    expect(formatNumber(1234)).toBe('1234');
    expect(formatNumber(12_345)).toBe('12.345');
  });
});

describe('formatDateTime', () => {
  it('writes the moment in Spanish with a 24-hour clock, never the browser language’s format', () => {
    const shown = formatDateTime('2026-11-23T10:48:53.000Z');
    expect(shown).not.toMatch(/AM|PM|\//);
    expect(shown).toMatch(/^2[34] nov 2026, \d{1,2}:\d{2}$/);
  });
});

describe('formatUtcDay', () => {
  it('names the UTC day, not the local one', () => {
    expect(formatUtcDay('2026-11-22')).toBe('22 nov');
    expect(formatUtcDay('2026-01-01')).toBe('1 ene');
  });
});
