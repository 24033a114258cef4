import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';

/**
 * The one form in which a host is compared, whoever wrote it (a destination, an imported row, an
 * edit, the operator's blocked domain): lower case and punycode (WHATWG's domain to ASCII, which
 * also turns 0x7f.1 and 2130706433 into 127.0.0.1), without the final dots ('mal.example..'), an
 * IPv6 address compressed and without brackets, an IPv4-mapped one ('[::ffff:7f00:1]',
 * '[::ffff:127.0.0.1]') as the IPv4 address it is. Undefined for what is no host: an empty label
 * ('a..b', '.a'), or nothing the URL standard takes.
 */
export function normalHost(host: string): string | undefined {
  let value = host.trim().replace(/\.+$/, '');
  if (value.includes(':') && !value.startsWith('[')) value = `[${value}]`;
  const ascii = domainToASCII(value);
  if (ascii === '') return undefined;
  if (ascii.startsWith('[')) {
    const address = ipaddr.IPv6.parse(ascii.slice(1, -1));
    return address.isIPv4MappedAddress() ? address.toIPv4Address().toString() : address.toString();
  }
  return ascii.split('.').includes('') ? undefined : ascii;
}
