// The «Prueba A/B» weights always sum to 100, each a whole number from 1 to 99: the dialog never
// shows a split the API would refuse.

const TOTAL = 100;

/** `count` whole weights summing to 100, as even as can be (the first ones take the remainder). */
export function evenWeights(count: number): number[] {
  const base = Math.floor(TOTAL / count);
  const remainder = TOTAL - base * count;
  return Array.from({ length: count }, (_, index) => base + (index < remainder ? 1 : 0));
}

/**
 * The weights with the one at `index` set to `weight` (made whole and kept so every other can
 * still have 1): the last other variant absorbs the difference, and when it reaches 1 (or 99) the
 * one before it takes the rest, and so on.
 */
export function setWeight(weights: readonly number[], index: number, weight: number): number[] {
  const count = weights.length;
  const next = [...weights];
  const wanted = Number.isFinite(weight) ? Math.round(weight) : weights[index]!;
  next[index] = Math.min(TOTAL - (count - 1), Math.max(1, wanted));
  let difference = TOTAL - next.reduce((sum, value) => sum + value, 0);
  for (let other = count - 1; other >= 0 && difference !== 0; other -= 1) {
    if (other === index) continue;
    const adjusted = Math.min(99, Math.max(1, next[other]! + difference));
    difference -= adjusted - next[other]!;
    next[other] = adjusted;
  }
  return next;
}

/** The weights with one more variant: an even split. */
export function weightsWithOneMore(weights: readonly number[]): number[] {
  return evenWeights(weights.length + 1);
}

/** The weights without the one at `index`: its weight is shared among the others (the first ones take the remainder). */
export function weightsWithout(weights: readonly number[], index: number): number[] {
  const removed = weights[index] ?? 0;
  const rest = weights.filter((_, position) => position !== index);
  if (rest.length === 0) return [];
  const share = Math.floor(removed / rest.length);
  const remainder = removed - share * rest.length;
  const shared = rest.map((weight, position) => weight + share + (position < remainder ? 1 : 0));
  // Weights that did not sum to 100 before (a stored test cannot, but be safe) are evened out.
  return shared.reduce((sum, weight) => sum + weight, 0) === TOTAL && shared.every((weight) => weight >= 1 && weight <= 99)
    ? shared
    : evenWeights(rest.length);
}

export const totalOf = (weights: readonly number[]) => weights.reduce((sum, weight) => sum + weight, 0);
