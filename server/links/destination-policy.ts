import { adminMessages } from '@common/admin/admin-messages';
import { linkMessages } from '@common/links/link-messages';
import ipaddr from 'ipaddr.js';
import { normalHost } from './normal-host';

// Address ranges that lead into the visitor's own machine or network rather than to a site on
// the Internet (ipaddr.js's names for them).
const LOCAL_RANGES = new Set([
  'unspecified', // 0.0.0.0/8, ::: many systems take it as this machine
  'loopback',
  'private',
  'linkLocal',
  'uniqueLocal', // fc00::/7, IPv6's private ranges
  'deprecatedSiteLocal',
  'carrierGradeNat', // 100.64.0.0/10, behind an operator's NAT
  'broadcast',
  'multicast',
]);

/**
 * Names that only ever resolve inside the visitor's machine or network: localhost (RFC 6761),
 * mDNS's .local (RFC 6762), .home.arpa (RFC 8375) and .internal (reserved for private use).
 */
function isLocalName(host: string): boolean {
  if (host === 'localhost' || host === 'home.arpa') return true;
  return ['.localhost', '.local', '.home.arpa', '.internal'].some((suffix) => host.endsWith(suffix));
}

/** The IPv4 address an IPv6 one carries and leads to: mapped, SIIT, NAT64, IPv4-compatible, 6to4. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const range = address.range();
  const p = address.parts;
  const fromParts = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') return fromParts(p[6]!, p[7]!);
  if (p.slice(0, 6).every((part) => part === 0) && (p[6] !== 0 || p[7]! > 1)) return fromParts(p[6]!, p[7]!);
  if (range === '6to4') return fromParts(p[1]!, p[2]!);
  return undefined;
}

/**
 * Whether a host (as the URL parser gives it: odd IPv4 forms such as 0x7f.1 are already dotted
 * quads, IPv6 in brackets) is a loopback, private, link-local or similar address or name.
 * Names are not resolved: see isRefusedDestination.
 */
export function isLocalHost(hostname: string): boolean {
  const host = normalHost(hostname);
  if (host === undefined) return false;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  if (ipaddr.IPv6.isValid(host) && host.includes(':')) {
    const v6 = ipaddr.IPv6.parse(host);
    address = embeddedIPv4(v6) ?? v6;
  } else if (ipaddr.IPv4.isValidFourPartDecimal(host)) {
    address = ipaddr.IPv4.parse(host);
  } else {
    return isLocalName(host);
  }
  return LOCAL_RANGES.has(address.range());
}

export interface DestinationPolicy {
  /** PUBLIC_BASE_URL: links to this host would lead back to the shortener. */
  publicBaseUrl: string;
  /** ALLOW_PRIVATE_DESTINATIONS: an intranet's choice. */
  allowPrivate: boolean;
  /** The operator's blocked domains (each blocks its subdomains too), as isBlockedHost takes them. */
  blockedDomains?: ReadonlySet<string>;
}

/**
 * Whether a hostname is a blocked domain or under one: 'mal.example' blocks 'mal.example' and
 * 'a.b.mal.example', not 'nomal.example'. One set lookup per label, so cheap at any list size. Both
 * sides are in normalHost's form, so '[::ffff:7f00:1]' is the blocked 127.0.0.1 and
 * 'MAL.example..' the blocked mal.example. An address matches only itself, or, for an IPv6 one,
 * the IPv4 address it carries and leads to (NAT64, 6to4...).
 */
export function isBlockedHost(hostname: string, blocked: ReadonlySet<string>): boolean {
  if (blocked.size === 0) return false;
  let host = normalHost(hostname);
  if (host === undefined) return false;
  if (ipaddr.isValid(host)) {
    const address = ipaddr.parse(host);
    const carried = address.kind() === 'ipv6' ? embeddedIPv4(address as ipaddr.IPv6) : undefined;
    return blocked.has(host) || (carried !== undefined && blocked.has(carried.toString()));
  }
  for (;;) {
    if (blocked.has(host)) return true;
    const dot = host.indexOf('.');
    if (dot < 0) return false;
    host = host.slice(dot + 1);
  }
}

/** isBlockedHost for a stored destination; a URL that does not parse is not judged here. */
export function isBlockedUrl(url: string, blocked: ReadonlySet<string>): boolean {
  if (blocked.size === 0) return false;
  try {
    return isBlockedHost(new URL(url).hostname, blocked);
  } catch {
    return false;
  }
}

/**
 * Why a link may not lead to `longUrl` (already in the URL standard's form), or undefined.
 * - Local and private addresses: a public short link must not turn a visitor's browser against
 *   their own machine or network (router pages, local services).
 * - This instance's host, whatever the path, port or scheme: a short address of a short address
 *   hides the real destination and can loop, and a code in a path has too many spellings (%61,
 *   a trailing slash, another port redirecting to this one) to tell which are codes.
 * Names are judged as written, not looked up: the visitor's browser follows the redirect, not
 * this server, and a name's address can change after the link is made.
 */
export function destinationProblem(
  longUrl: string,
  { publicBaseUrl, allowPrivate, blockedDomains }: DestinationPolicy,
): string | undefined {
  const host = normalHost(new URL(longUrl).hostname);
  if (host === undefined) return linkMessages.longUrlInvalid;
  // The operator's list holds for intranets too.
  if (blockedDomains && isBlockedHost(host, blockedDomains)) return adminMessages.domainBlocked;
  if (allowPrivate) return undefined;
  if (host === normalHost(new URL(publicBaseUrl).hostname)) return linkMessages.longUrlThisInstance;
  if (isLocalHost(host)) return linkMessages.longUrlPrivate;
  return undefined;
}
