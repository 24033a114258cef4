import { domainMessages as m } from '@common/domains/domain-messages';
import { isBlockedHost } from '../links/destination-policy';

export interface HostnamePolicy {
  /** The instance's own host (PUBLIC_BASE_URL's), lower case. */
  instanceHost: string;
  /** The operator's blocked domains (each blocks its subdomains too). */
  blockedDomains: ReadonlySet<string>;
}

/**
 * Why a workspace may not add this name (already checkHostname's stored form), or undefined.
 * The instance's host and the names under it are the operator's: a workspace holding one would
 * answer for the instance (and see cookies set for it). A blocked domain, or one under it, is
 * refused as its links would be.
 */
export function hostnameProblem(hostname: string, { instanceHost, blockedDomains }: HostnamePolicy): string | undefined {
  if (hostname === instanceHost) return m.hostnameInstance;
  if (hostname.endsWith(`.${instanceHost}`)) return m.hostnameUnderInstance;
  if (isBlockedHost(hostname, blockedDomains)) return m.hostnameBlocked;
  return undefined;
}
