import { describe, expect, it } from 'vitest';
import { type AbTestStats, abTestVerdict, destinationLabel, returnRateLine } from './destination-stats';

const routing = {
  rules: [{ url: 'https://apps.apple.com/' }, { url: 'https://play.google.com/' }, { url: 'https://apps.apple.com/' }],
  variants: [{ url: 'https://a.es/' }, { url: 'https://b.es/' }],
};

const test: AbTestStats = {
  variants: [
    { destinationId: 7, url: 'https://a.es/', weight: 50, visitors: 1000, returning: 150, returnRate: 0.15 },
    { destinationId: 8, url: 'https://b.es/', weight: 50, visitors: 1000, returning: 118, returnRate: 0.118 },
  ],
  leader: 0,
  runnerUp: 1,
  difference: 0.032,
  low: 0.01,
  high: 0.054,
  confidence: 0.9734,
};

describe('the statistics per destination in words', () => {
  it('names a row after the rule, the variant or the main destination', () => {
    expect(destinationLabel({ source: 'default', url: 'https://web.es/' }, routing)).toBe('Destino principal');
    expect(destinationLabel({ source: 'rule', url: 'https://play.google.com/' }, routing)).toBe('Regla 2');
    expect(destinationLabel({ source: 'rule', url: 'https://apps.apple.com/' }, routing)).toBe('Reglas 1 y 3');
    expect(destinationLabel({ source: 'rule', url: 'https://antes.es/' }, routing)).toBe('Regla ya quitada');
    expect(destinationLabel({ source: 'variant', url: 'https://b.es/' }, routing)).toBe('Variante B');
    // A test that has ended: the stats' own list of variants names it.
    expect(destinationLabel({ source: 'variant', url: 'https://b.es/' }, { rules: [], variants: null }, test)).toBe('Variante B');
    expect(destinationLabel({ source: 'variant', url: 'https://c.es/' }, { rules: [], variants: null }, test)).toBe('Variante de una prueba anterior');
  });

  it('says who leads, by how many points, within which interval and how sure', () => {
    expect(abTestVerdict(test)).toEqual({
      sentence: 'La variante A hace volver a más visitantes: +3,2 puntos (entre +1,0 y +5,4), confianza 97 %',
      note: 'Es poco probable que la diferencia se deba al azar.',
    });
    const weak = abTestVerdict({ ...test, leader: 1, runnerUp: 0, difference: 0.004, low: -0.012, high: 0.02, confidence: 0.41 });
    expect(weak.sentence).toBe('La variante B hace volver a más visitantes: +0,4 puntos (entre -1,2 y +2,0), confianza 41 %');
    expect(weak.note).toMatch(/azar/);
    expect(abTestVerdict({ ...test, confidence: 0.99999 }).sentence).toMatch(/confianza 99 %$/);
  });

  it('has nothing to compare without visitors, and says so on a tie', () => {
    const empty = { ...test, variants: test.variants.map((variant) => ({ ...variant, visitors: 0, returning: 0, returnRate: 0 })), difference: 0 };
    expect(abTestVerdict(empty)).toEqual({ sentence: 'Aún no hay visitantes en la prueba para compararla.', note: null });
    expect(abTestVerdict({ ...test, difference: 0 }).sentence).toBe('Las variantes hacen volver a la misma parte de sus visitantes.');
    // One variant reached, the other not yet: no lead claimed.
    const half = { ...test, variants: test.variants.map((variant, index) => (index === 0 ? { ...variant, visitors: 0, returning: 0, returnRate: 0 } : variant)) };
    expect(abTestVerdict(half)).toEqual({ sentence: 'Aún no se puede comparar: la variante A no ha tenido visitantes en este periodo.', note: null });
  });

  it('gives each variant’s return rate', () => {
    expect(returnRateLine(test.variants[1]!, 1, String)).toBe('Variante B: vuelven 11,8 % (118 de 1000)');
  });
});
