import type { IncomingMessage, ServerResponse } from 'node:http';
import { addressKey } from '@common/links/short-address';
import { isReservedPath } from '@common/reserved-paths';
import type { HostedDomains } from '../domains/hosted-domains';
import { type Metrics, SAMPLE_EVERY } from '../metrics/metrics';
import { type ClickLimits, isHumanVisit } from './click-limit';
import type { LinkCache } from './link-cache';
import { addressFromPath } from './path-address';
import type { RedirectAnswer } from './redirect-answer';

// Short codes are 6 base-36 characters, aliases 3 to 50 of letters, digits, '-' and '_'. This
// ASCII test is all a plain code costs; a path that fails it is only decoded (addressFromPath)
// when it holds a '%', as an alias with 'ñ' arrives from a browser.
export const possibleCode = /^[A-Za-z0-9_-]{1,50}$/;

export interface RedirectFastPath {
  /** Answers a GET or HEAD of a link already in the cache and returns true; false leaves it to Fastify. */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
  /** From now on everything goes to Fastify, which answers 503 and closes kept-alive connections. */
  stop(): void;
}

/**
 * The hot path in front of Fastify's router: a redirect of a cached link is all a visit asks, and
 * Fastify's request and reply objects, routing and hooks cost more than the answer itself (a
 * minimal Fastify route reaches about 0.7 of a bare node:http server). Anything else (a cache miss,
 * a query for the database, another method, a path that is not a plain code) goes to Fastify's
 * /:code route, which gives the same answer through the same function.
 *
 * The Host header picks the domain: the instance's own host costs one string comparison (with the
 * last header that named it), a verified and enabled custom domain one lookup in the registry and
 * its key prefix; any other host (unknown, unverified, disabled) is Fastify's site gate's.
 */
/**
 * The Host header, read from the raw list rather than `request.headers`: building that object this
 * early, before the answer needs it, left some processes about a third slower on every redirect
 * (bench:redirect, fresh processes against each other). Clients send Host first, so the loop
 * usually stops at once.
 */
function hostOf(rawHeaders: readonly string[]): string | undefined {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) return rawHeaders[i + 1];
  }
  return undefined;
}

export function createRedirectFastPath(
  linkCache: Pick<LinkCache, 'peek'>,
  answer: RedirectAnswer,
  limits?: Pick<ClickLimits, 'takeNow' | 'countsWithClicks'>,
  /** Counted with plain increments; one answer in SAMPLE_EVERY timed. */
  metrics?: Pick<Metrics, 'hot' | 'redirectSeconds'>,
  /** Who the Host header names; without it every request is the instance's own host. */
  hostedDomains?: Pick<HostedDomains, 'siteOf'>,
): RedirectFastPath {
  const hot = metrics?.hot ?? { redirects: 0, cacheHits: 0, cacheMisses: 0 };
  const redirectSeconds = metrics?.redirectSeconds;
  let open = true;
  // The last raw Host header that named the instance (absent names it too): what nearly every
  // request on the instance's host sends again, so it costs a comparison. A header once the
  // instance's stays so (a domain can never take the instance's name, an IP or a dotless name).
  let instanceHost: string | undefined = undefined;
  return {
    handle(request, response) {
      if (!open || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
      const host = hostOf(request.rawHeaders);
      let prefix = '';
      if (host !== instanceHost && hostedDomains) {
        const site = hostedDomains.siteOf(host);
        if (site === 'instance') instanceHost = host;
        else if (site === 'unknown' || !site.verified || site.disabled) return false;
        else prefix = site.keyPrefix;
      }
      const url = request.url ?? '';
      const queryAt = url.indexOf('?');
      const code = queryAt === -1 ? url.slice(1) : url.slice(1, queryAt);
      if (url.charCodeAt(0) !== 47 /* '/' */) return false;
      let link;
      // Reserved paths are the app's on the instance and the gate's 404 on a custom domain.
      if (possibleCode.test(code)) {
        if (isReservedPath(code)) return false;
        link = linkCache.peek(prefix === '' ? code : prefix + code);
      } else {
        const address = code.includes('%') ? addressFromPath(code) : undefined;
        if (address === undefined || isReservedPath(address)) return false;
        link = linkCache.peek(prefix + addressKey(address));
      }
      if (!link) {
        hot.cacheMisses += 1;
        return false;
      }
      hot.cacheHits += 1;
      // A plain link has no gate: one test. A date-only one is still answered here until its date;
      // so is a person's visit of a link with a click limit while a place is at hand (in memory).
      // Any other state (pause, password, a passed date, a limit without a place here) is the
      // Fastify route's.
      const gate = link.gate;
      let limited = false;
      if (gate !== undefined) {
        if (gate.dateOnly) {
          if (Date.now() >= gate.expiresAt) return false;
        } else {
          if (!gate.limitOnly || !limits || Date.now() >= gate.expiresAt) return false;
          if (!isHumanVisit(request.method, request.headers['user-agent']) || !limits.takeNow(link.id)) return false;
          limited = limits.countsWithClicks;
        }
      }
      hot.redirects += 1;
      if (hot.redirects % SAMPLE_EVERY === 0 && redirectSeconds) {
        const started = performance.now();
        answer(request, response, link, undefined, limited);
        redirectSeconds.observe((performance.now() - started) / 1000);
      } else {
        answer(request, response, link, undefined, limited);
      }
      return true;
    },
    stop() {
      open = false;
    },
  };
}
