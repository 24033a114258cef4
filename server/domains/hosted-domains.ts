import { isIP } from 'node:net';
import type { Database } from '../db/database';
import { domainKeyPrefix } from './domain-keys';

/** A workspace's domain as the redirect needs it. */
export interface HostedDomain {
  id: number;
  workspaceId: number;
  /** Lower case, punycode. */
  hostname: string;
  /** Before an address in the link cache's keys (domainAddressKey). */
  keyPrefix: string;
  verified: boolean;
  /** By the operator: its links answer 410. */
  disabled: boolean;
  rootRedirect: string | null;
  notFoundRedirect: string | null;
}

/**
 * Who a request's Host header names: the instance itself, one of the domains workspaces added
 * (verified or not: the caller decides what an unverified one gets), or a name nobody added.
 * Absent (HTTP/1.0), an IP address or a name without a dot ('localhost', a container's service
 * name, as Caddy asks tls-allowed by) is the instance reached directly: a domain always has a dot.
 */
export type Site = 'instance' | 'unknown' | HostedDomain;

/**
 * Every custom domain, held in memory so the redirect resolves a Host without a query. Each
 * instance loads them at start; a change is written to the database and announced through the
 * link cache's broadcast (linkCache.forgetAll), which makes every instance load them again.
 */
export interface HostedDomains {
  /** The instance's own host name (PUBLIC_BASE_URL's, lower case, no port). */
  readonly instanceHost: string;
  load(): Promise<void>;
  siteOf(hostHeader: string | undefined): Site;
  byId(id: number): HostedDomain | undefined;
  /** Verified domains answer tls-allowed (Caddy's on-demand certificates). */
  readonly size: number;
}

// Host headers remembered with their answer: a handful in practice, bounded against a client
// that sends a new one each time.
const MEMO_LIMIT = 1024;

/** The name in a Host header: lower case, without port or final dot; undefined for an IP literal. */
export function hostNameOf(hostHeader: string): string | undefined {
  let host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) return undefined; // an IPv6 literal
  const colon = host.lastIndexOf(':');
  if (colon !== -1) {
    if (host.indexOf(':') !== colon) return undefined; // an IPv6 address without brackets
    host = host.slice(0, colon);
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  return isIP(host) === 0 ? host : undefined;
}

export function createHostedDomains(db: Database, publicBaseUrl: string): HostedDomains {
  const instanceHost = new URL(publicBaseUrl).hostname.toLowerCase();
  let byName = new Map<string, HostedDomain>();
  let byId = new Map<number, HostedDomain>();
  let memo = new Map<string, Site>();

  const resolve = (hostHeader: string): Site => {
    const name = hostNameOf(hostHeader);
    if (name === undefined || !name.includes('.') || name === instanceHost) return 'instance';
    return byName.get(name) ?? 'unknown';
  };

  return {
    instanceHost,
    async load() {
      const rows = await db
        .selectFrom('domains')
        .select(['id', 'workspace_id', 'hostname', 'verified_at', 'disabled_at', 'root_redirect', 'not_found_redirect'])
        .execute();
      const domains = rows.map(
        (row): HostedDomain => ({
          id: Number(row.id),
          workspaceId: Number(row.workspace_id),
          hostname: row.hostname,
          keyPrefix: domainKeyPrefix(Number(row.id)),
          verified: row.verified_at !== null,
          disabled: row.disabled_at !== null,
          rootRedirect: row.root_redirect,
          notFoundRedirect: row.not_found_redirect,
        }),
      );
      byName = new Map(domains.map((domain) => [domain.hostname, domain]));
      byId = new Map(domains.map((domain) => [domain.id, domain]));
      memo = new Map();
    },
    siteOf(hostHeader) {
      if (hostHeader === undefined) return 'instance';
      let site = memo.get(hostHeader);
      if (site === undefined) {
        site = resolve(hostHeader);
        if (memo.size >= MEMO_LIMIT) memo.clear();
        memo.set(hostHeader, site);
      }
      return site;
    },
    byId: (id) => byId.get(id),
    get size() {
      return byName.size;
    },
  };
}
