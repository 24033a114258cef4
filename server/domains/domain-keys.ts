import { addressKey } from '@common/links/short-address';

/**
 * The key an address is stored and cached under: addressKey(address) on the instance's own host,
 * '{domainId}/' before it on a custom domain. A '/' never appears in an address, so the two never
 * meet, and the unique indexes on the keys make aliases unique per domain (migration 0022).
 */
export function domainAddressKey(domainId: number | null | undefined, address: string): string {
  const key = addressKey(address);
  return domainId == null ? key : `${domainId}/${key}`;
}

/** The cache key's prefix for a domain's addresses ('' on the instance's own host). */
export function domainKeyPrefix(domainId: number | null | undefined): string {
  return domainId == null ? '' : `${domainId}/`;
}

/** A key back to its domain and address key. */
export function splitDomainKey(key: string): { domainId: number | null; key: string } {
  const slash = key.indexOf('/');
  return slash === -1 ? { domainId: null, key } : { domainId: Number(key.slice(0, slash)), key: key.slice(slash + 1) };
}
