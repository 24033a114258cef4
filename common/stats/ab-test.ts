// Which A/B variant wins, from what a shortener can see. It sees no conversions, so the outcome
// compared is the share of a variant's unique visitors (per day) who came back: clicked the link
// again the same day. The two best variants' return rates are compared as two proportions: the
// difference with its 95 % confidence interval (normal approximation, unpooled standard error),
// and the two-sided p-value of the pooled two-proportion z-test; "confianza" is 1 − p.
// Plain functions, so the web app can explain the figures with the same code (docs/statistics.md).

/** A variant's unique visitors (visitor-days) and how many of them came back that day. */
export interface VariantOutcome {
  visitors: number;
  returning: number;
}

/** The normal distribution's two-sided 95 % quantile. */
export const Z_95 = 1.959963984540054;

/** The error function, Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7). */
function erf(x: number): number {
  const sign = x < 0 ? -1 : 1;
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return sign * (1 - poly * Math.exp(-x * x));
}

/** P(Z ≤ z) for a standard normal Z. */
export function normalCdf(z: number): number {
  return 0.5 * (1 + erf(z / Math.SQRT2));
}

export const returnRate = ({ visitors, returning }: VariantOutcome) => (visitors > 0 ? returning / visitors : 0);

const clamp = (value: number) => Math.min(1, Math.max(-1, value));

export interface RateComparison {
  /** a's return rate minus b's. */
  difference: number;
  /** The difference's 95 % confidence interval, within −1..1. */
  low: number;
  high: number;
  /** 1 − the two-sided p-value of the pooled z-test; 0 when either has no visitors. */
  confidence: number;
}

/** a's return rate against b's (a the leader, b the runner-up). */
export function compareReturnRates(a: VariantOutcome, b: VariantOutcome): RateComparison {
  const pa = returnRate(a);
  const pb = returnRate(b);
  const difference = pa - pb;
  // Without visitors on one side nothing is known: the whole interval, no confidence.
  if (a.visitors === 0 || b.visitors === 0) return { difference, low: -1, high: 1, confidence: 0 };
  const se = Math.sqrt((pa * (1 - pa)) / a.visitors + (pb * (1 - pb)) / b.visitors);
  const pooled = (a.returning + b.returning) / (a.visitors + b.visitors);
  const pooledSe = Math.sqrt(pooled * (1 - pooled) * (1 / a.visitors + 1 / b.visitors));
  // Both at 0 % (or both at 100 %): no spread, no evidence of a difference.
  const confidence = pooledSe === 0 ? 0 : 1 - 2 * (1 - normalCdf(Math.abs(difference) / pooledSe));
  return { difference, low: clamp(difference - Z_95 * se), high: clamp(difference + Z_95 * se), confidence: Math.max(0, confidence) };
}

export interface AbTestFigures<T extends VariantOutcome> extends RateComparison {
  variants: Array<T & { returnRate: number }>;
  /** Indexes into variants: the highest return rate (ties: more visitors, then the first), and the second. */
  leader: number;
  runnerUp: number;
}

/** The figures of a test of two or more variants, in the variants' own order. */
export function abTestOf<T extends VariantOutcome>(variants: T[]): AbTestFigures<T> {
  const rated = variants.map((variant) => ({ ...variant, returnRate: returnRate(variant) }));
  const order = rated
    .map((variant, index) => ({ ...variant, index }))
    .sort((a, b) => b.returnRate - a.returnRate || b.visitors - a.visitors || a.index - b.index);
  const leader = order[0]!.index;
  const runnerUp = order[1]!.index;
  return { variants: rated, leader, runnerUp, ...compareReturnRates(rated[leader]!, rated[runnerUp]!) };
}
