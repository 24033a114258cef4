import type { Domain, DomainList } from '@common/domains/domain-schemas';
import { displayAddress } from '../links/components/link-format';

// What the domains page and the link forms make of GET /api/domains. Kept free of the hostname
// checks (and their punycode encoder): the dashboard loads this, the add form alone needs those.

export type DomainState = 'pending' | 'verified' | 'disabled';

/** The operator's decision first: a disabled domain's links answer 410 whatever its record says. */
export function domainState(domain: Pick<Domain, 'verified' | 'disabled'>): DomainState {
  if (domain.disabled) return 'disabled';
  return domain.verified ? 'verified' : 'pending';
}

export const domainStateLabels: Record<DomainState, string> = {
  pending: 'Pendiente de verificar',
  verified: 'Verificado',
  disabled: 'Desactivado por el administrador',
};

/** A host as people read it (Unicode), the instance's own included ('localhost:3000' stays as is). */
export function readableHost(host: string): string {
  return displayAddress(`http://${host}`).replace(/\/$/, '');
}

export interface DomainOption {
  /** What the API takes as `domain`: '' for the instance's own host, else the ASCII hostname. */
  value: string;
  label: string;
}

/** The link's domain as the API sends it (null: the instance's own host; absent from older servers). */
export function linkDomainOf(link: object): string | null {
  const domain = (link as { domain?: unknown }).domain;
  return typeof domain === 'string' && domain !== '' ? domain : null;
}

/**
 * The «Dominio» select of the link forms: the instance's own host first, then the workspace's
 * verified domains the operator has not disabled. The link's current domain stays chosen even when
 * it no longer qualifies, marked so. Empty when there is nothing to choose between.
 */
export function linkDomainOptions(list: DomainList | undefined, current: string | null = null): DomainOption[] {
  if (!list) return [];
  const usable = list.domains.filter((domain) => domainState(domain) === 'verified');
  const options: DomainOption[] = [
    { value: '', label: readableHost(list.instanceHost) },
    ...usable.map((domain) => ({ value: domain.hostname, label: domain.displayHostname })),
  ];
  if (current && !usable.some((domain) => domain.hostname === current)) {
    const known = list.domains.find((domain) => domain.hostname === current);
    const state = known ? domainStateLabels[domainState(known)].toLowerCase() : 'ya no está en el espacio';
    options.push({ value: current, label: `${known?.displayHostname ?? readableHost(current)} (${state})` });
  }
  return options.length > 1 ? options : [];
}

/**
 * The dashboard's filter by domain (`domain=<hostname>`, the instance's own host included): only
 * when the workspace has domains at all.
 */
export function domainFilterOptions(list: DomainList | undefined): DomainOption[] {
  if (!list || list.domains.length === 0) return [];
  return [
    { value: list.instanceHost, label: readableHost(list.instanceHost) },
    ...list.domains.map((domain) => ({ value: domain.hostname, label: domain.displayHostname })),
  ];
}

/** Where a link's short address starts: https://{domain} on a domain, PUBLIC_BASE_URL otherwise. */
export function shortAddressBase(publicBaseUrl: string, domain: string | null | undefined): string {
  return domain ? `https://${domain}` : publicBaseUrl;
}
