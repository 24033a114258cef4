import { decodePunycode } from '../../../lib/punycode';

// Addresses as people read them. Only what is shown changes: links keep the exact stored URL.

// Scripts whose letters pass for one another ('а' Cyrillic, 'a' Latin): a host label mixing them
// is shown in its ASCII form, as browsers do, rather than as a look-alike of another domain.
const LOOKALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u];

function readableLabel(label: string): string {
  if (!label.startsWith('xn--')) return label;
  try {
    const decoded = decodePunycode(label.slice(4));
    const scripts = LOOKALIKE_SCRIPTS.filter((script) => script.test(decoded)).length;
    return scripts > 1 ? label : decoded;
  } catch {
    return label;
  }
}

// Decoded, these would hide or reorder what is shown (line breaks, bidi overrides, zero-width
// characters, unusual spaces): they stay percent-encoded.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/gu;

function readablePath(path: string): string {
  try {
    // decodeURI leaves the escapes of '/', '?', '#', '&'... as they are, so the address means the same.
    return decodeURI(path).replace(INVISIBLE, (character) => encodeURIComponent(character));
  } catch {
    return path; // not valid percent-encoding: shown as stored
  }
}

/** A URL as people read it: host in Unicode, path and query decoded ('https://españa.es/canción'). */
export function readableUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return readablePath(url);
  }
  const host = parsed.hostname.split('.').map(readableLabel).join('.');
  const credentials = parsed.username ? `${parsed.username}${parsed.password ? `:${parsed.password}` : ''}@` : '';
  const port = parsed.port ? `:${parsed.port}` : '';
  return `${parsed.protocol}//${credentials}${host}${port}${readablePath(parsed.pathname + parsed.search + parsed.hash)}`;
}

/** An address as people read it: readableUrl without the scheme. */
export function displayAddress(url: string): string {
  return readableUrl(url).replace(/^https?:\/\//, '');
}
