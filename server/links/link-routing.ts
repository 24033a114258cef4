import type { FieldErrors } from '@common/api-error';
import { atRule, atVariant } from '@common/links/link-messages';
import { ruleMessages } from '@common/rules/rule-messages';
import type { Rule, Variant } from '@common/rules/rule-schemas';
import type { AppContext } from '../app-context';
import { type DestinationPolicy, destinationProblem } from './destination-policy';
import { normalHost } from './normal-host';

// The server's checks on a link's rules and A/B variants (their format is the schemas'): each URL
// passes the destination policy the link's own URL does, and is no short address of this
// instance, on its own host or on any verified custom domain (a visit would come back here, and
// could go round for ever). Run before anything is written, at creation, edit, bulk and import.

export interface Routing {
  rules?: readonly Rule[] | null | undefined;
  variants?: readonly Variant[] | null | undefined;
}

export type LoopHosts = Pick<AppContext['hostedDomains'], 'siteOf'>;

/**
 * Whether a URL leads to a short address of this instance: PUBLIC_BASE_URL's host, or a verified
 * custom domain of any workspace. Compared by name only: siteOf takes an IP or a dotless name for
 * the instance reached directly, which a destination's address is not (those are the private
 * addresses' rule).
 */
export function isLoop(url: string, instanceHost: string, hosted: LoopHosts | undefined): boolean {
  const host = normalHost(new URL(url).hostname);
  if (host === undefined) return false;
  if (host === instanceHost) return true;
  if (!hosted || !host.includes('.')) return false;
  const site = hosted.siteOf(host);
  return typeof site === 'object' && site.verified;
}

/** Why one rule's or variant's URL is refused, or undefined. */
function urlProblem(url: string, policy: DestinationPolicy, hosted: LoopHosts | undefined): string | undefined {
  const instanceHost = normalHost(new URL(policy.publicBaseUrl).hostname) ?? '';
  // A loop whatever ALLOW_PRIVATE_DESTINATIONS says: an intranet's short link may lead anywhere but here.
  if (isLoop(url, instanceHost, hosted)) return ruleMessages.loop;
  return destinationProblem(url, policy);
}

/**
 * Every refused rule and variant URL, keyed as the error handler keys a request's fields (the
 * body's own field: `rules`, `variants`), each message saying which one; undefined when all pass.
 */
export function routingProblems(routing: Routing, policy: DestinationPolicy, hosted: LoopHosts | undefined): FieldErrors | undefined {
  const fields: FieldErrors = {};
  routing.rules?.forEach((rule, index) => {
    const problem = urlProblem(rule.url, policy, hosted);
    if (problem) (fields.rules ??= []).push(atRule(index, problem));
  });
  routing.variants?.forEach((variant, index) => {
    const problem = urlProblem(variant.url, policy, hosted);
    if (problem) (fields.variants ??= []).push(atVariant(index, problem));
  });
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/** The columns a link's rules, variants and status are stored in: null for none. */
export function routingColumns(routing: Routing & { redirectType?: number | undefined }) {
  return {
    ...(routing.rules !== undefined ? { rules: routing.rules && routing.rules.length > 0 ? JSON.stringify(routing.rules) : null } : {}),
    ...(routing.variants !== undefined ? { variants: routing.variants && routing.variants.length > 0 ? JSON.stringify(routing.variants) : null } : {}),
    ...(routing.redirectType !== undefined ? { redirect_type: routing.redirectType } : {}),
  };
}
