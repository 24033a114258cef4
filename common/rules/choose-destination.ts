import type { DestinationSource, RuleBrowser, RuleCondition, RuleDevice, RuleSystem } from './rule-schemas';

// Which URL a visit goes to (docs/rules.md): the first rule whose conditions all hold, else the
// A/B variant of the visitor's bucket, else the link's own URL. Plain functions, run by the
// redirect for each visit of a link with rules or variants, and by the edit dialog's «Probar».

/**
 * What the conditions may ask about a visitor. Methods, so that the redirect works out only what a
 * link's rules ask (the user agent parsed, the country looked up) and only once.
 */
export interface VisitorTraits {
  device(): RuleDevice;
  os(): RuleSystem | null;
  browser(): RuleBrowser | null;
  /** ISO 3166-1 alpha-2, upper case; null when unknown. */
  country(): string | null;
  /** The visitor's preferred language: Accept-Language's first primary subtag, lower case; null without one. */
  language(): string | null;
  /** A query parameter of the visit; null when absent. */
  query(name: string): string | null;
  /** Epoch ms. */
  now(): number;
}

export interface RoutedLink {
  url: string;
  rules?: readonly { when: RuleCondition; url: string }[] | null;
  variants?: readonly { url: string; weight: number }[] | null;
}

export interface Destination {
  url: string;
  source: DestinationSource;
  /** The rule's or the variant's position (0-based); -1 for the link's own URL. */
  index: number;
}

/** Whether every condition of a rule holds for the visitor. */
export function conditionHolds(when: RuleCondition, visitor: VisitorTraits): boolean {
  if (when.device && !when.device.includes(visitor.device())) return false;
  if (when.os) {
    const os = visitor.os();
    if (os === null || !when.os.includes(os)) return false;
  }
  if (when.browser) {
    const browser = visitor.browser();
    if (browser === null || !when.browser.includes(browser)) return false;
  }
  if (when.country) {
    const country = visitor.country();
    if (country === null || !when.country.includes(country)) return false;
  }
  if (when.language) {
    const language = visitor.language();
    if (language === null || !when.language.includes(language)) return false;
  }
  if (when.query) {
    for (const name in when.query) {
      const value = visitor.query(name);
      const wanted = when.query[name];
      if (value === null || (wanted !== '*' && value !== wanted)) return false;
    }
  }
  if (when.from !== undefined || when.until !== undefined) {
    const now = visitor.now();
    if (when.from !== undefined && now < instant(when.from)) return false;
    if (when.until !== undefined && now >= instant(when.until)) return false;
  }
  return true;
}

// Date.parse costs more than the rest of a rule: each date is parsed once (the redirect tries the
// same rules' strings on every visit; a Map hit on them is a few nanoseconds).
const instants = new Map<string, number>();
const INSTANTS_KEPT = 10_000;

function instant(text: string): number {
  let at = instants.get(text);
  if (at === undefined) {
    at = Date.parse(text);
    if (instants.size >= INSTANTS_KEPT) instants.clear();
    instants.set(text, at);
  }
  return at;
}

/** The variant a bucket (0 to 99) falls in: each variant takes `weight` buckets, in order. */
export function variantOfBucket(variants: readonly { weight: number }[], bucket: number): number {
  let upTo = 0;
  for (let index = 0; index < variants.length; index += 1) {
    upTo += variants[index]!.weight;
    if (bucket < upTo) return index;
  }
  return variants.length - 1;
}

/**
 * Where a visit goes. `bucket` (0 to 99) places the visitor in the A/B test: the same bucket, the
 * same variant; asked only when no rule holds and the link has variants.
 */
export function chooseDestination(link: RoutedLink, visitor: VisitorTraits, bucket: () => number): Destination {
  const rules = link.rules;
  if (rules) {
    for (let index = 0; index < rules.length; index += 1) {
      if (conditionHolds(rules[index]!.when, visitor)) return { url: rules[index]!.url, source: 'rule', index };
    }
  }
  const variants = link.variants;
  if (variants && variants.length > 0) {
    const index = variantOfBucket(variants, bucket());
    return { url: variants[index]!.url, source: 'variant', index };
  }
  return { url: link.url, source: 'default', index: -1 };
}

// An Accept-Language header is the visitor's to write: only its start is read, so a huge one
// costs no more than a normal one.
const ACCEPT_LANGUAGE_READ = 256;

/** The preferred language of an Accept-Language header ('es-MX,es;q=0.9,en;q=0.8' -> 'es'), or null. */
export function preferredLanguage(header: string | undefined): string | null {
  if (!header) return null;
  let best: string | null = null;
  let bestQ = 0;
  for (const part of header.slice(0, ACCEPT_LANGUAGE_READ).split(',')) {
    const [range = '', ...params] = part.split(';');
    const primary = range.trim().split('-')[0]!.toLowerCase();
    if (!/^[a-z]{2,3}$/.test(primary)) continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(param);
      if (match) q = Number(match[1]);
    }
    // The first of equal weights wins, as the header orders them.
    if (q > bestQ) [best, bestQ] = [primary, q];
  }
  return best;
}

/** ua-parser-js's operating system names as the rules say them. */
export function ruleSystemOf(os: string | null): RuleSystem | null {
  if (os === null) return null;
  if (os === 'iOS' || os === 'iPadOS') return 'ios';
  if (os === 'Android') return 'android';
  if (os.startsWith('Windows')) return 'windows';
  if (os === 'macOS' || os === 'Mac OS') return 'macos';
  if (os === 'Linux' || os === 'Ubuntu' || os === 'Debian' || os === 'Fedora' || os === 'Arch' || os === 'Chromium OS') return 'linux';
  return null;
}

/** ua-parser-js's browser names as the rules say them. */
export function ruleBrowserOf(browser: string | null): RuleBrowser | null {
  if (browser === null) return null;
  if (browser === 'Chrome' || browser === 'Mobile Chrome' || browser === 'Chrome Headless' || browser === 'Chrome WebView') return 'chrome';
  if (browser === 'Safari' || browser === 'Mobile Safari') return 'safari';
  if (browser === 'Firefox' || browser === 'Mobile Firefox') return 'firefox';
  if (browser === 'Edge') return 'edge';
  if (browser === 'Opera' || browser === 'Opera Mobi' || browser === 'Opera Touch') return 'opera';
  if (browser === 'Samsung Internet') return 'samsung';
  return null;
}
