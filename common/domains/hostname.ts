import punycode from 'punycode/punycode.js';

const { toASCII, toUnicode } = punycode;
import { isSingleScript } from '../links/mixed-script';
import { DOMAIN_CHALLENGE_PREFIX, domainMessages as m } from './domain-messages';

// A domain name as a workspace types it, checked once for the server and the web app: stored in
// lower case and punycode (the form Host headers, DNS and certificates use), shown in Unicode.

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

export type HostnameCheck = { hostname: string } | { error: string };

/** The stored form of a typed domain ('Go.Empresa.es.' -> 'go.empresa.es'), or why it is refused. */
export function checkHostname(typed: string): HostnameCheck {
  const text = typed.trim();
  if (text === '') return { error: m.hostnameRequired };
  if (/[/?#@\\]/.test(text) || /^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return { error: m.hostnameOnlyName };
  if (text.includes('*')) return { error: m.hostnameWildcard };
  if (text.startsWith('[') || (text.match(/:/g)?.length ?? 0) > 1) return { error: m.hostnameIp };
  if (text.includes(':')) return { error: m.hostnamePort };
  // One final dot is the DNS's own spelling of the same name.
  const name = (text.endsWith('.') ? text.slice(0, -1) : text).normalize('NFC').toLowerCase();
  if (IPV4.test(name)) return { error: m.hostnameIp };
  let ascii: string;
  try {
    ascii = toASCII(name);
  } catch {
    return { error: m.hostnameInvalid };
  }
  if (ascii.length > 253) return { error: m.hostnameTooLong };
  const labels = ascii.split('.');
  if (labels.length < 2) return { error: m.hostnameNeedsDot };
  if (labels.some((label) => label.length > 63)) return { error: m.hostnameLabelTooLong };
  if (!labels.every((label) => LABEL.test(label))) return { error: m.hostnameInvalid };
  // A top-level domain is never all digits: that is an address.
  if (/^\d+$/.test(labels[labels.length - 1]!)) return { error: m.hostnameIp };
  for (const label of labels) {
    let unicode: string;
    try {
      unicode = label.startsWith('xn--') ? toUnicode(label) : label;
    } catch {
      return { error: m.hostnameInvalid };
    }
    // A punycode label must decode to something the same rules accept, in one script.
    if (label.startsWith('xn--') && (unicode === label || toASCII(unicode.normalize('NFC').toLowerCase()) !== label)) return { error: m.hostnameInvalid };
    if (!isSingleScript(unicode)) return { error: m.hostnameMixedScripts };
  }
  return { hostname: ascii };
}

/** A stored hostname as people read it ('xn--empaa-rta.es' -> 'empaña.es'). */
export function displayHostname(hostname: string): string {
  try {
    return toUnicode(hostname);
  } catch {
    return hostname;
  }
}

/** Where the TXT record that proves a domain goes. */
export function challengeNameOf(hostname: string): string {
  return `${DOMAIN_CHALLENGE_PREFIX}.${hostname}`;
}
