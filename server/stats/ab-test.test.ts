import { abTestOf, compareReturnRates, normalCdf } from '@common/stats/ab-test';
import { describe, expect, it } from 'vitest';

// Expected figures worked out by hand (shown), to the precision of the normal table.

describe('the normal distribution', () => {
  it('matches the table', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1)).toBeCloseTo(0.158655, 6);
    expect(normalCdf(3)).toBeCloseTo(0.998650, 6);
  });
});

describe('comparing two return rates', () => {
  it('30 of 100 against 10 of 100', () => {
    // p1 = 0.30, p2 = 0.10, difference 0.20.
    // Unpooled se = √(0.3·0.7/100 + 0.1·0.9/100) = √0.003 = 0.0547723; ±1.96·se = ±0.107352.
    // Pooled p = 40/200 = 0.2; se = √(0.2·0.8·(1/100 + 1/100)) = √0.0032 = 0.0565685; z = 3.5355.
    // Two-sided p = 2·(1 − Φ(3.5355)) = 0.000407: confidence 0.999593.
    const result = compareReturnRates({ visitors: 100, returning: 30 }, { visitors: 100, returning: 10 });
    expect(result.difference).toBeCloseTo(0.2, 10);
    expect(result.low).toBeCloseTo(0.092648, 5);
    expect(result.high).toBeCloseTo(0.307352, 5);
    expect(result.confidence).toBeCloseTo(0.999593, 5);
  });

  it('120 of 1000 against 100 of 1000: a difference whose interval holds 0', () => {
    // Difference 0.02; se = √(0.12·0.88/1000 + 0.1·0.9/1000) = √0.0001956 = 0.0139857: CI −0.00741..0.04741.
    // Pooled 0.11: se = √(0.11·0.89·0.002) = 0.0139929, z = 1.4293, p = 0.1529: confidence 0.8471.
    const result = compareReturnRates({ visitors: 1000, returning: 120 }, { visitors: 1000, returning: 100 });
    expect(result.difference).toBeCloseTo(0.02, 10);
    expect(result.low).toBeCloseTo(-0.007411, 5);
    expect(result.high).toBeCloseTo(0.047411, 5);
    expect(result.confidence).toBeCloseTo(0.8471, 4);
  });

  it('claims nothing without visitors on one side, nor when neither has any return', () => {
    expect(compareReturnRates({ visitors: 10, returning: 5 }, { visitors: 0, returning: 0 })).toEqual({ difference: 0.5, low: -1, high: 1, confidence: 0 });
    expect(compareReturnRates({ visitors: 10, returning: 0 }, { visitors: 20, returning: 0 })).toEqual({ difference: 0, low: 0, high: 0, confidence: 0 });
  });
});

describe('an A/B test', () => {
  it('names the leader and the runner-up by return rate, then by visitors, and compares those two', () => {
    const test = abTestOf([
      { url: 'https://a.es', visitors: 250, returning: 25 }, // 0.10
      { url: 'https://b.es', visitors: 400, returning: 60 }, // 0.15: the leader
      { url: 'https://c.es', visitors: 50, returning: 5 }, // 0.10, fewer visitors than a
    ]);
    expect(test.variants.map((variant) => variant.returnRate)).toEqual([0.1, 0.15, 0.1]);
    expect(test.variants[0]!.url).toBe('https://a.es');
    expect(test.leader).toBe(1);
    expect(test.runnerUp).toBe(0);
    // 0.15 − 0.10 = 0.05; se = √(0.15·0.85/400 + 0.1·0.9/250) = √0.00067875 = 0.0260528: CI −0.00106..0.10106.
    // Pooled 85/650 = 0.130769: se = √(0.130769·0.869231·(1/400 + 1/250)) = 0.0271816, z = 1.8395, p = 0.0658.
    expect(test.difference).toBeCloseTo(0.05, 10);
    expect(test.low).toBeCloseTo(-0.001063, 5);
    expect(test.high).toBeCloseTo(0.101063, 5);
    expect(test.confidence).toBeCloseTo(0.93415, 4);
  });

  it('keeps the first of equals, and a test nobody has visited yet has no confidence', () => {
    const test = abTestOf([
      { visitors: 0, returning: 0 },
      { visitors: 0, returning: 0 },
    ]);
    expect(test).toMatchObject({ leader: 0, runnerUp: 1, difference: 0, low: -1, high: 1, confidence: 0 });
  });
});
