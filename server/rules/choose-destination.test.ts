import { describe, expect, it } from 'vitest';
import {
  chooseDestination,
  conditionHolds,
  preferredLanguage,
  ruleBrowserOf,
  ruleSystemOf,
  variantOfBucket,
  type VisitorTraits,
} from '@common/rules/choose-destination';
import type { RuleCondition } from '@common/rules/rule-schemas';
import { describeAgent } from '../clicks/device';

// common/rules/choose-destination.ts, tested here: common/ imports only zod (eslint), and the
// agents are parsed as the redirect parses them (server/clicks/device.ts).

const noon = Date.parse('2026-06-01T12:00:00Z');

/** A visitor with fixed traits; `asked` lists what the rules asked, in order. */
function visitor(traits: Partial<Record<'device' | 'os' | 'browser' | 'country' | 'language', string | null>> & { query?: Record<string, string>; now?: number } = {}) {
  const asked: string[] = [];
  const v: VisitorTraits = {
    device: () => (asked.push('device'), (traits.device ?? 'desktop') as 'desktop'),
    os: () => (asked.push('os'), (traits.os ?? null) as 'ios' | null),
    browser: () => (asked.push('browser'), (traits.browser ?? null) as 'chrome' | null),
    country: () => (asked.push('country'), traits.country ?? null),
    language: () => (asked.push('language'), traits.language ?? null),
    query: (name) => (asked.push(`query:${name}`), traits.query?.[name] ?? null),
    now: () => (asked.push('now'), traits.now ?? noon),
  };
  return Object.assign(v, { asked });
}

const holds = (when: RuleCondition, v: VisitorTraits) => conditionHolds(when, v);

describe('conditionHolds: each kind of condition', () => {
  it('device: one of the listed', () => {
    expect(holds({ device: ['mobile', 'tablet'] }, visitor({ device: 'tablet' }))).toBe(true);
    expect(holds({ device: ['mobile'] }, visitor({ device: 'desktop' }))).toBe(false);
  });

  it('operating system and browser: one of the listed; unknown never matches', () => {
    expect(holds({ os: ['ios', 'android'] }, visitor({ os: 'android' }))).toBe(true);
    expect(holds({ os: ['ios'] }, visitor({ os: 'windows' }))).toBe(false);
    expect(holds({ os: ['ios'] }, visitor({ os: null }))).toBe(false);
    expect(holds({ browser: ['safari'] }, visitor({ browser: 'safari' }))).toBe(true);
    expect(holds({ browser: ['safari'] }, visitor({ browser: null }))).toBe(false);
  });

  it('country and language: one of the listed; unknown never matches', () => {
    expect(holds({ country: ['ES', 'MX'] }, visitor({ country: 'MX' }))).toBe(true);
    expect(holds({ country: ['ES'] }, visitor({ country: 'AR' }))).toBe(false);
    expect(holds({ country: ['ES'] }, visitor({ country: null }))).toBe(false);
    expect(holds({ language: ['es'] }, visitor({ language: 'es' }))).toBe(true);
    expect(holds({ language: ['es'] }, visitor({ language: 'en' }))).toBe(false);
    expect(holds({ language: ['es'] }, visitor({ language: null }))).toBe(false);
  });

  it("query: the value given, or any value with '*' (the parameter present)", () => {
    expect(holds({ query: { utm_source: 'boletin' } }, visitor({ query: { utm_source: 'boletin' } }))).toBe(true);
    expect(holds({ query: { utm_source: 'boletin' } }, visitor({ query: { utm_source: 'twitter' } }))).toBe(false);
    expect(holds({ query: { ref: '*' } }, visitor({ query: { ref: '' } }))).toBe(true);
    expect(holds({ query: { ref: '*' } }, visitor({ query: { ref: 'x' } }))).toBe(true);
    expect(holds({ query: { ref: '*' } }, visitor({ query: {} }))).toBe(false);
    // Every parameter named must be there.
    expect(holds({ query: { a: '1', b: '*' } }, visitor({ query: { a: '1' } }))).toBe(false);
    expect(holds({ query: { a: '1', b: '*' } }, visitor({ query: { a: '1', b: '2' } }))).toBe(true);
  });

  it('time window: from its start (included) until its end (not included)', () => {
    const when = { from: '2026-06-01T12:00:00Z', until: '2026-06-01T13:00:00Z' };
    expect(holds(when, visitor({ now: noon - 1 }))).toBe(false);
    expect(holds(when, visitor({ now: noon }))).toBe(true);
    expect(holds(when, visitor({ now: noon + 3_599_999 }))).toBe(true);
    expect(holds(when, visitor({ now: noon + 3_600_000 }))).toBe(false);
    expect(holds({ from: '2026-06-01T14:00:00+02:00' }, visitor({ now: noon }))).toBe(true); // the same instant
    expect(holds({ until: '2026-06-01T12:00:00Z' }, visitor({ now: noon }))).toBe(false);
    expect(holds({ until: '2026-06-01T12:00:00Z' }, visitor({ now: noon - 1 }))).toBe(true);
  });

  it('several conditions: all must hold, and the rest is not asked once one fails', () => {
    const when: RuleCondition = { device: ['mobile'], os: ['ios'], country: ['ES'] };
    expect(holds(when, visitor({ device: 'mobile', os: 'ios', country: 'ES' }))).toBe(true);
    expect(holds(when, visitor({ device: 'mobile', os: 'ios', country: 'MX' }))).toBe(false);
    const v = visitor({ device: 'desktop', os: 'ios', country: 'ES' });
    expect(holds(when, v)).toBe(false);
    expect(v.asked).toEqual(['device']);
  });
});

describe('chooseDestination', () => {
  const link = {
    url: 'https://example.com/web',
    rules: [
      { when: { os: ['ios' as const] }, url: 'https://apps.apple.com/app' },
      { when: { os: ['android' as const] }, url: 'https://play.google.com/app' },
      { when: { device: ['mobile' as const] }, url: 'https://example.com/movil' },
    ],
  };

  it('the first rule that holds wins, in order', () => {
    expect(chooseDestination(link, visitor({ device: 'mobile', os: 'ios' }), () => 0)).toEqual({ url: 'https://apps.apple.com/app', source: 'rule', index: 0 });
    expect(chooseDestination(link, visitor({ device: 'mobile', os: 'android' }), () => 0)).toEqual({ url: 'https://play.google.com/app', source: 'rule', index: 1 });
    expect(chooseDestination(link, visitor({ device: 'mobile' }), () => 0)).toEqual({ url: 'https://example.com/movil', source: 'rule', index: 2 });
  });

  it("no rule holds: the link's own URL, and no bucket asked", () => {
    let asked = 0;
    expect(chooseDestination(link, visitor({ os: 'windows' }), () => (asked++, 0))).toEqual({ url: 'https://example.com/web', source: 'default', index: -1 });
    expect(asked).toBe(0);
  });

  it("a rule that holds comes before the A/B test; otherwise the bucket's variant", () => {
    const tested = {
      ...link,
      variants: [
        { url: 'https://example.com/a', weight: 70 },
        { url: 'https://example.com/b', weight: 20 },
        { url: 'https://example.com/c', weight: 10 },
      ],
    };
    let asked = 0;
    expect(chooseDestination(tested, visitor({ os: 'ios' }), () => (asked++, 95)).source).toBe('rule');
    expect(asked).toBe(0);
    expect(chooseDestination(tested, visitor(), () => 0)).toEqual({ url: 'https://example.com/a', source: 'variant', index: 0 });
    expect(chooseDestination(tested, visitor(), () => 69).index).toBe(0);
    expect(chooseDestination(tested, visitor(), () => 70).index).toBe(1);
    expect(chooseDestination(tested, visitor(), () => 89).index).toBe(1);
    expect(chooseDestination(tested, visitor(), () => 90)).toEqual({ url: 'https://example.com/c', source: 'variant', index: 2 });
    expect(chooseDestination(tested, visitor(), () => 99).index).toBe(2);
  });

  it('variantOfBucket gives each variant exactly its weight in buckets', () => {
    const variants = [{ weight: 50 }, { weight: 30 }, { weight: 15 }, { weight: 4 }, { weight: 1 }];
    const counts = [0, 0, 0, 0, 0];
    for (let bucket = 0; bucket < 100; bucket++) counts[variantOfBucket(variants, bucket)]! += 1;
    expect(counts).toEqual([50, 30, 15, 4, 1]);
  });
});

describe('preferredLanguage (Accept-Language)', () => {
  it('the primary subtag of the most wanted language, lower case', () => {
    expect(preferredLanguage('es-MX,es;q=0.9,en;q=0.8')).toBe('es');
    expect(preferredLanguage('EN-us')).toBe('en');
    expect(preferredLanguage('de;q=0.5, fr;q=0.9, en;q=0.7')).toBe('fr');
    expect(preferredLanguage('pt-BR;q=0.8, *;q=0.9')).toBe('pt'); // '*' names no language
    expect(preferredLanguage('en;q=0.5, es;q=0.5')).toBe('en'); // the first of equal weights
    expect(preferredLanguage('ast, es;q=0.9')).toBe('ast');
  });

  it('nothing usable: null', () => {
    expect(preferredLanguage(undefined)).toBeNull();
    expect(preferredLanguage('')).toBeNull();
    expect(preferredLanguage('*')).toBeNull();
    expect(preferredLanguage(';;;,,,==q')).toBeNull();
    expect(preferredLanguage('en;q=0')).toBeNull();
    expect(preferredLanguage('123, ñ-es, e')).toBeNull();
  });

  it('malformed weights are ignored rather than trusted', () => {
    expect(preferredLanguage('en;q=abc, es;q=0.9')).toBe('en'); // a weight it cannot read counts as 1
    expect(preferredLanguage('en;q=2, es;q=0.9')).toBe('en');
    expect(preferredLanguage('en;q=-1, es')).toBe('en');
  });

  it('a huge header: only its start is read, quickly', () => {
    const huge = `fr;q=0.1,${'x'.repeat(100_000)},es;q=1`;
    const started = performance.now();
    expect(preferredLanguage(huge)).toBe('fr');
    expect(preferredLanguage(`${'en-GB;q=0.5,'.repeat(50_000)}es`)).toBe('en');
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe('ruleSystemOf and ruleBrowserOf on real user agents', () => {
  const agents = {
    iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    iphoneChrome: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1',
    ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
    android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
    windowsChrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
    macSafari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15',
    linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
    ubuntuFirefox: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
    edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
    samsung:
      'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36',
    opera: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0',
  };
  const traits = (agent: string) => {
    const details = describeAgent(agent);
    return [details.device, ruleSystemOf(details.os), ruleBrowserOf(details.browser)];
  };

  it.each([
    ['iphone', 'mobile', 'ios', 'safari'],
    ['iphoneChrome', 'mobile', 'ios', 'chrome'],
    ['ipad', 'tablet', 'ios', 'safari'],
    ['android', 'mobile', 'android', 'chrome'],
    ['windowsChrome', 'desktop', 'windows', 'chrome'],
    ['macSafari', 'desktop', 'macos', 'safari'],
    ['linuxFirefox', 'desktop', 'linux', 'firefox'],
    ['ubuntuFirefox', 'desktop', 'linux', 'firefox'],
    ['edge', 'desktop', 'windows', 'edge'],
    ['samsung', 'mobile', 'android', 'samsung'],
    ['opera', 'desktop', 'windows', 'opera'],
  ] as const)('%s: %s, %s, %s', (name, device, os, browser) => {
    expect(traits(agents[name])).toEqual([device, os, browser]);
  });

  it('odd or absent agents: no system or browser, never an error', () => {
    for (const agent of ['', 'curl/8.5.0', '\u0000\uffff', 'x'.repeat(10_000), 'Mozilla/5.0 (PlayStation 5 3.11) AppleWebKit/605.1.15']) {
      const [, os, browser] = traits(agent);
      expect([null, 'linux', 'windows', 'ios', 'android', 'macos']).toContain(os);
      expect([null, 'chrome', 'safari', 'firefox', 'edge', 'opera', 'samsung']).toContain(browser);
    }
    expect(ruleSystemOf(null)).toBeNull();
    expect(ruleBrowserOf(null)).toBeNull();
    expect(ruleSystemOf('BlackBerry')).toBeNull();
    expect(ruleBrowserOf('Yandex')).toBeNull();
  });
});
