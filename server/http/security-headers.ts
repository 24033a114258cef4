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

/** helmet on every route registered after it (routes may opt out with `helmet: false`). */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
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
    // The stored QR codes and pictures are published for anyone to embed.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
}
