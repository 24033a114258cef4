import { describe, expect, it } from 'vitest';
import { defaultProbeVisit, probe, probeWording } from './probe';

const link = {
  url: 'https://web.es/',
  rules: [
    { when: { os: ['ios' as const] }, url: 'https://apps.apple.com/app' },
    { when: { os: ['android' as const] }, url: 'https://play.google.com/app' },
    { when: { country: ['MX'], language: ['es'] }, url: 'https://mx.web.es/' },
    { when: { query: { ref: 'qr' } }, url: 'https://web.es/qr' },
    { when: { from: '2030-01-01T00:00:00.000Z' }, url: 'https://web.es/futuro' },
  ],
};

describe('«Probar»', () => {
  it('says which rule a visit meets first', () => {
    expect(probeWording(probe(link, { ...defaultProbeVisit, os: 'android' }))).toBe('Iría a: https://play.google.com/app (regla 2)');
    expect(probeWording(probe(link, { ...defaultProbeVisit, os: 'ios', country: 'MX', language: 'es' }))).toBe(
      'Iría a: https://apps.apple.com/app (regla 1)',
    );
    expect(probeWording(probe(link, { ...defaultProbeVisit, device: 'desktop', country: 'MX', language: 'es' }))).toBe(
      'Iría a: https://mx.web.es/ (regla 3)',
    );
    expect(probeWording(probe(link, { ...defaultProbeVisit, query: '?ref=qr&x=1' }))).toBe('Iría a: https://web.es/qr (regla 4)');
  });

  it('honours the time window at the moment asked', () => {
    expect(probe(link, defaultProbeVisit, Date.parse('2031-01-01T00:00:00Z'))).toEqual({ source: 'rule', position: 5, url: 'https://web.es/futuro' });
  });

  it('falls back to the main destination', () => {
    expect(probeWording(probe(link, { ...defaultProbeVisit, country: 'ES', language: 'es' }, Date.parse('2026-01-01T00:00:00Z')))).toBe(
      'Iría a: https://web.es/ (destino principal)',
    );
  });

  it('names every variant an A/B visitor could get, with its weight', () => {
    const tested = {
      ...link,
      variants: [
        { url: 'https://a.web.es/', weight: 70 },
        { url: '', weight: 30 },
      ],
    };
    expect(probeWording(probe(tested, defaultProbeVisit, 0))).toBe(
      'Iría a una de las variantes de la prueba A/B (cada persona conserva la suya): variante A, https://a.web.es/ (70 %); variante B, (sin URL todavía) (30 %)',
    );
    // A rule still comes first.
    expect(probeWording(probe(tested, { ...defaultProbeVisit, os: 'ios' }))).toBe('Iría a: https://apps.apple.com/app (regla 1)');
  });
});
