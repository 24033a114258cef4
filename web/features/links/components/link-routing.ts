import type { Link } from '@common/links/link-schemas';
import type { RedirectType, Rule, Variant } from '@common/rules/rule-schemas';

// A link's rules, A/B variants and redirect status, read as optional: a server without them
// (or an older answer in the cache) reads as a plain link. Types only: nothing of common/rules
// is downloaded with the card.

type MaybeRouted = { rules?: Rule[] | null; variants?: Variant[] | null; redirectType?: RedirectType | null };

export interface LinkRouting {
  rules: Rule[];
  variants: Variant[] | null;
  redirectType: RedirectType;
}

export function routingOf(link: Link): LinkRouting {
  const routed = link as Link & MaybeRouted;
  return {
    rules: routed.rules ?? [],
    variants: routed.variants && routed.variants.length > 0 ? routed.variants : null,
    redirectType: routed.redirectType ?? 302,
  };
}

/** What a PATCH or a creation may say about them: only what changed. */
export interface RoutingChanges {
  rules?: Rule[];
  variants?: Variant[] | null;
  redirectType?: RedirectType;
}
