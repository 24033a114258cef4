// RFC 3492 decoding, for showing international domain names as people write them: the URL
// parser keeps a host in its ASCII form ('xn--espaa-rta.es'), and only decoding is needed here,
// so a few lines rather than a dependency.

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;

function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}

function digitOf(code: number): number {
  if (code >= 48 && code <= 57) return code - 22; // '0'-'9' are 26-35
  if (code >= 65 && code <= 90) return code - 65; // 'A'-'Z'
  if (code >= 97 && code <= 122) return code - 97; // 'a'-'z'
  return BASE;
}

/** The Unicode text of a Punycode string (without its 'xn--'); throws on a malformed one. */
export function decodePunycode(input: string): string {
  const output: number[] = [];
  const basicEnd = Math.max(0, input.lastIndexOf('-'));
  for (let j = 0; j < basicEnd; j += 1) {
    const code = input.charCodeAt(j);
    if (code >= 0x80) throw new Error('Punycode: not a basic code point');
    output.push(code);
  }
  let n = INITIAL_N;
  let bias = INITIAL_BIAS;
  let i = 0;
  for (let index = basicEnd > 0 ? basicEnd + 1 : 0; index < input.length; ) {
    const oldI = i;
    for (let w = 1, k = BASE; ; k += BASE) {
      if (index >= input.length) throw new Error('Punycode: truncated');
      const digit = digitOf(input.charCodeAt(index++));
      if (digit >= BASE) throw new Error('Punycode: bad digit');
      i += digit * w;
      if (i > 0x10ffff * (output.length + 1)) throw new Error('Punycode: overflow');
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      w *= BASE - t;
    }
    const length = output.length + 1;
    bias = adapt(i - oldI, length, oldI === 0);
    n += Math.floor(i / length);
    i %= length;
    if (n > 0x10ffff) throw new Error('Punycode: overflow');
    output.splice(i, 0, n);
    i += 1;
  }
  return String.fromCodePoint(...output);
}
