import { chooseDestination, type RoutedLink, type VisitorTraits } from '@common/rules/choose-destination';
import { ruleEditorMessages as m, variantLetter } from '@common/rules/rule-editor-messages';
import type { RuleBrowser, RuleDevice, RuleSystem } from '@common/rules/rule-schemas';

// «Probar»: a visit described with a few selects, sent through the very function the redirect
// runs (chooseDestination), on the rules and the test as the form holds them now.

export interface ProbeVisit {
  device: RuleDevice;
  /** '' for another or an unknown one. */
  os: RuleSystem | '';
  browser: RuleBrowser | '';
  /** ISO code, '' for unknown. */
  country: string;
  /** ISO 639 code, '' for none. */
  language: string;
  /** The visit's query string ('utm_source=boletin&ref=qr', with or without '?'). */
  query: string;
}

export const defaultProbeVisit: ProbeVisit = { device: 'mobile', os: '', browser: '', country: '', language: '', query: '' };

export function visitorOf(visit: ProbeVisit, now: number): VisitorTraits {
  const params = new URLSearchParams(visit.query.trim().replace(/^\?/, ''));
  return {
    device: () => visit.device,
    os: () => visit.os || null,
    browser: () => visit.browser || null,
    country: () => visit.country || null,
    language: () => visit.language || null,
    query: (name) => params.get(name),
    now: () => now,
  };
}

export type ProbeResult =
  | { source: 'rule'; position: number; url: string }
  | { source: 'variant'; variants: { letter: string; url: string; weight: number }[] }
  | { source: 'default'; url: string };

/** Where the visit would go; for an A/B test, every variant it could get (the bucket is each visitor's). */
export function probe(link: RoutedLink, visit: ProbeVisit, now = Date.now()): ProbeResult {
  const destination = chooseDestination(link, visitorOf(visit, now), () => 0);
  if (destination.source === 'rule') return { source: 'rule', position: destination.index + 1, url: destination.url };
  if (destination.source === 'variant') {
    const variants = (link.variants ?? []).map((variant, index) => ({ letter: variantLetter(index), url: variant.url, weight: variant.weight }));
    return { source: 'variant', variants };
  }
  return { source: 'default', url: destination.url };
}

const shown = (url: string) => url.trim() || m.probeNoUrl;

/** «Iría a: https://… (regla 2)», «… (destino principal)», or the variants with their weights. */
export function probeWording(result: ProbeResult): string {
  if (result.source === 'rule') return m.probeRule(shown(result.url), result.position);
  if (result.source === 'default') return m.probeDefault(shown(result.url));
  return m.probeVariants(result.variants.map((variant) => m.probeVariant(variant.letter, shown(variant.url), variant.weight)).join('; '));
}
