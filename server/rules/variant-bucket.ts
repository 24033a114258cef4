import type { IncomingMessage } from 'node:http';
import { VARIANT_COOKIE_DAYS } from '@common/rules/rule-messages';

// Who gets which variant of an A/B test (docs/rules.md): the visitor's bucket, 0 to 99, of which
// each variant takes its weight. A cookie on the short address's host keeps it for 30 days; a
// visitor without one (a first visit, cookies refused) gets a bucket from a hash of their address,
// agent, the UTC day and the link, so they keep their variant that day on every instance alike (no
// salt, nothing stored) and the bucket is sent in a cookie for the days after.

const DAY_MS = 86_400_000;
const COOKIE_PREFIX = 'corto_ab_';
const MAX_AGE = VARIANT_COOKIE_DAYS * 86_400;

export const variantCookieName = (linkId: number) => `${COOKIE_PREFIX}${linkId}`;

/** The bucket a visitor's cookie holds for the link, or undefined without a valid one. */
export function bucketOfCookie(header: string | undefined, linkId: number): number | undefined {
  if (header === undefined) return undefined;
  const name = variantCookieName(linkId);
  let at = header.indexOf(name);
  while (at !== -1) {
    // Its own name, not the end of another's (corto_ab_12 in corto_ab_112).
    const before = at === 0 ? ' ' : header[at - 1];
    if ((before === ' ' || before === ';') && header.charCodeAt(at + name.length) === 61 /* '=' */) {
      const end = header.indexOf(';', at);
      const value = header.slice(at + name.length + 1, end === -1 ? undefined : end).trim();
      return /^\d{1,2}$/.test(value) ? Number(value) : undefined;
    }
    at = header.indexOf(name, at + name.length);
  }
  return undefined;
}

// FNV-1a, 32 bits, over each character's code unit: a few nanoseconds a character, where a
// sha256 costs a microsecond; the spread is all a bucket needs, not secrecy.
function fnv(text: string, hash: number): number {
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash;
}

/** A visitor's bucket without a cookie: the same address and agent on the same UTC day, the same bucket. */
export function bucketOfVisitor(ip: string, userAgent: string | undefined, now: number, linkId: number): number {
  let hash = fnv(ip, 2166136261);
  hash = fnv(userAgent ?? '', Math.imul(hash ^ 0, 16777619));
  hash = Math.imul(hash ^ Math.floor(now / DAY_MS), 16777619);
  hash = Math.imul(hash ^ linkId, 16777619);
  // Murmur3's finaliser: FNV's low bits alone are not spread evenly enough for a modulo.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) % 100;
}

/**
 * The Set-Cookie that keeps a visitor's bucket: HttpOnly (no script needs it), SameSite=Lax (sent
 * when following a link from another site, which is how short links are visited), Secure when
 * the visit came over HTTPS.
 */
export function variantCookie(linkId: number, bucket: number, secure: boolean): string {
  return `${variantCookieName(linkId)}=${bucket}; Max-Age=${MAX_AGE}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * Whether a visit came over HTTPS: the public address is https (a proxy in front), the socket is
 * TLS, or a proxy says so (Caddy in front of a custom domain sends X-Forwarded-Proto). A forged
 * header only makes the forger's own browser drop the cookie.
 */
export function cameOverHttps(request: IncomingMessage, publicHttps: boolean): boolean {
  if (publicHttps) return true;
  if ((request.socket as { encrypted?: boolean }).encrypted) return true;
  const proto = request.headers['x-forwarded-proto'];
  return typeof proto === 'string' && proto.trimStart().startsWith('https');
}

/**
 * One visit's place in a link's A/B test, drawn only when no rule holds: from its cookie, else
 * from the visitor, with the cookie to send (`cookie`) unless the request only asks (HEAD).
 */
export class VisitBucket {
  /** The Set-Cookie to send with the answer, when the bucket was drawn without one. */
  cookie: string | undefined = undefined;

  constructor(
    private readonly request: IncomingMessage,
    private readonly linkId: number,
    private readonly visitor: { ip(): string; now(): number },
    private readonly publicHttps: boolean,
  ) {}

  draw(): number {
    const kept = bucketOfCookie(this.request.headers.cookie, this.linkId);
    if (kept !== undefined) return kept;
    const drawn = bucketOfVisitor(this.visitor.ip(), this.request.headers['user-agent'], this.visitor.now(), this.linkId);
    // HEAD only asks; a visit (a GET, or the password form's POST) keeps its variant.
    if (this.request.method !== 'HEAD') this.cookie = variantCookie(this.linkId, drawn, cameOverHttps(this.request, this.publicHttps));
    return drawn;
  }
}
