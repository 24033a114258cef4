import { describe, expect, it } from 'vitest';
import { evenWeights, setWeight, totalOf, weightsWithOneMore, weightsWithout } from './variant-weights';

describe('A/B weights', () => {
  it('splits evenly in whole numbers summing to 100', () => {
    expect(evenWeights(2)).toEqual([50, 50]);
    expect(evenWeights(3)).toEqual([34, 33, 33]);
    expect(evenWeights(5)).toEqual([20, 20, 20, 20, 20]);
    expect(weightsWithOneMore([70, 30])).toEqual([34, 33, 33]);
    for (let count = 2; count <= 5; count += 1) expect(totalOf(evenWeights(count))).toBe(100);
  });

  it('lets the last other variant absorb a change', () => {
    expect(setWeight([50, 50], 0, 70)).toEqual([70, 30]);
    expect(setWeight([34, 33, 33], 0, 40)).toEqual([40, 33, 27]);
    // Changing the last one: the one before it absorbs.
    expect(setWeight([34, 33, 33], 2, 50)).toEqual([34, 16, 50]);
  });

  it('moves on to the previous variants when the last other reaches 1', () => {
    expect(setWeight([10, 80, 10], 0, 95)).toEqual([95, 4, 1]);
    expect(setWeight([20, 20, 20, 20, 20], 4, 96)).toEqual([1, 1, 1, 1, 96]);
  });

  it('keeps every weight from 1 to 99 and the sum at 100, whatever is typed', () => {
    expect(setWeight([50, 50], 0, 100)).toEqual([99, 1]);
    expect(setWeight([50, 50], 1, 0)).toEqual([99, 1]);
    expect(setWeight([50, 50], 0, -5)).toEqual([1, 99]);
    expect(setWeight([50, 50], 0, 33.6)).toEqual([34, 66]);
    expect(setWeight([50, 50], 0, Number.NaN)).toEqual([50, 50]);
    expect(setWeight([34, 33, 33], 1, 500)).toEqual([1, 98, 1]);
    for (const typed of [1, 2, 50, 97, 98, 99, 150]) {
      const weights = setWeight([20, 30, 50], 1, typed);
      expect(totalOf(weights)).toBe(100);
      expect(weights.every((weight) => weight >= 1 && weight <= 99)).toBe(true);
    }
  });

  it('gives a removed variant’s weight to the others', () => {
    expect(weightsWithout([34, 33, 33], 0)).toEqual([50, 50]);
    expect(weightsWithout([20, 30, 50], 2)).toEqual([45, 55]);
    expect(weightsWithout([40, 30, 20, 10], 1)).toEqual([50, 30, 20]);
    expect(weightsWithout([97, 1, 1, 1], 0)).toEqual([34, 33, 33]);
  });
});
