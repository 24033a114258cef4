import type { Link } from '@common/links/link-schemas';
import type { RedirectType, Rule, Variant } from '@common/rules/rule-schemas';

// A link's rules, A/B variants and redirect status. Types only: nothing of common/rules is
// downloaded with the card.

export interface LinkRouting {
  rules: Rule[];
  variants: Variant[] | null;
  redirectType: RedirectType;
}

export function routingOf(link: Link): LinkRouting {
  return {
    rules: link.rules,
    variants: link.variants && link.variants.length > 0 ? link.variants : null,
    redirectType: link.redirectType,
  };
}

/** What a PATCH or a creation may say about them: only what changed. */
export interface RoutingChanges {
  rules?: Rule[];
  variants?: Variant[] | null;
  redirectType?: RedirectType;
}
