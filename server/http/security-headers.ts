import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

// One policy for every page, file and API answer. No inline scripts anywhere (Vite's build has
// none), and no inline styles either: React, Radix and the charts set styles through the CSSOM,
// which the policy allows (e2e/csp.spec.ts walks the screens and fails on any violation). Pictures
// may be data: or blob: URLs (the QR preview, the chosen profile picture).
const directives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

const REFERRER_POLICY = 'strict-origin-when-cross-origin';

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * The same policy as fixed headers, for the redirect hot path: set in one call on the reply
 * instead of running helmet's per-request hook, which costs a measurable share of a redirect.
 */
export const staticSecurityHeaders: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': Object.entries(directives)
    .map(([name, sources]) => `${kebab(name)} ${sources.join(' ')}`)
    .join(';'),
  'x-content-type-options': 'nosniff',
  'referrer-policy': REFERRER_POLICY,
  'x-frame-options': 'DENY',
});

const HSTS_MAX_AGE_S = 365 * 24 * 60 * 60;

/**
 * Strict-Transport-Security, for an install whose public address is https only: a browser ignores
 * it over plain http anyway, and an install reached by http on a LAN has nothing to pin.
 */
export const strictTransportSecurity = `max-age=${HSTS_MAX_AGE_S}; includeSubDomains`;

/** Cross-Origin-Resource-Policy of the stored files (QR codes, pictures): anyone may embed them. */
export const storedFileResourcePolicy = 'cross-origin';

/**
 * helmet on every route registered after it (routes may opt out with `helmet: false`). Everything
 * but the stored files is same-origin: no other site may embed an API answer or a page.
 */
export async function registerSecurityHeaders(app: FastifyInstance, { https }: { https: boolean }): Promise<void> {
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      // upgrade-insecure-requests is left out on purpose: a plain-http install on a LAN
      // address would have every script and style "upgraded" to an https that is not there.
      directives,
    },
    referrerPolicy: { policy: REFERRER_POLICY },
    frameguard: { action: 'deny' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_S, includeSubDomains: true } : false,
  });
}

/**
 * Cache-Control: no-store on every answer of the scope unless its route sets its own: API answers
 * are about a user (their links, their session) and must not stay in a browser's or a proxy's cache.
 */
export function registerNoStore(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.header('cache-control', 'no-store');
    done();
  });
}
