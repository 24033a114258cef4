import { describe, expect, it } from 'vitest';
import { wholePercentages } from '@common/stats/percent';

describe('wholePercentages', () => {
  it('gives three equal thirds 34, 33, 33, summing to 100', () => {
    expect(wholePercentages([1, 1, 1])).toEqual([34, 33, 33]);
  });

  it('gives the missing points to the largest remainders', () => {
    // 12.5%, 37.5%, 50%: floors 12 + 37 + 50 = 99; both remainders are .5, the earlier one wins.
    expect(wholePercentages([1, 3, 4])).toEqual([13, 37, 50]);
    // 2/7 = 28.57, 5/7 = 71.43: the .57 gets the point.
    expect(wholePercentages([2, 5])).toEqual([29, 71]);
  });

  it('sums to exactly 100 for many uneven splits', () => {
    for (let seed = 1; seed < 200; seed++) {
      const counts = [seed % 7, (seed * 3) % 11, (seed * 5) % 13 + 1, seed % 2];
      const shares = wholePercentages(counts);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(100);
      shares.forEach((share, i) => expect(Math.abs(share - (counts[i]! * 100) / counts.reduce((a, b) => a + b, 0))).toBeLessThan(1));
    }
  });

  it('gives zeros when nothing was counted', () => {
    expect(wholePercentages([0, 0])).toEqual([0, 0]);
    expect(wholePercentages([])).toEqual([]);
  });
});
