import ipaddr from 'ipaddr.js';

/**
 * The key a per-address limit counts a client by. One IPv6 user usually holds a whole /64 and can
 * pick a new address in it for every request, so IPv6 clients are counted by their /64; an
 * IPv4-mapped IPv6 address counts as the IPv4 address it carries.
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
