import { isReservedPath } from '@common/reserved-paths';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { HostedDomain, HostedDomains } from '../domains/hosted-domains';
import { staticSecurityHeaders } from '../http/security-headers';
import { addressFromPath } from './path-address';
import { possibleCode } from './redirect-fast-path';
import { VISITOR_STYLE_PATH } from './visitor-style';
import { sendDisabledPage, sendDomainNotFoundPage, sendDomainRootPage, sendUnknownHostPage } from './visitor-pages';

declare module 'fastify' {
  interface FastifyRequest {
    /** The custom domain the Host header names (verified); null on the instance's own host. */
    site: HostedDomain | null;
  }
}

// What Caddy asks before it gets a certificate for a name; it asks with the instance's own host,
// but a gate that refused it on any other would leave a domain without one.
const TLS_ALLOWED_PATH = '/api/domains/tls-allowed';

/** The origin a custom domain's visitors' pages are served from (Caddy serves them over HTTPS). */
export const siteOrigin = (site: HostedDomain) => `https://${site.hostname}`;

/** The path of a request target, without its query. */
const pathOf = (url: string) => {
  const queryAt = url.indexOf('?');
  return queryAt === -1 ? url : url.slice(0, queryAt);
};

/** '/{one segment}' that can be a link's address (not a path of the app's). */
function isCodePath(path: string): boolean {
  if (path.length < 2 || path.indexOf('/', 1) !== -1) return false;
  const segment = path.slice(1);
  const address = possibleCode.test(segment) ? segment : addressFromPath(segment);
  return address === undefined || !isReservedPath(address);
}

/**
 * What a host other than the instance's own gets, before any route: a verified domain serves only
 * its visitors' pages (`/{code}`, `/`, their stylesheet), every other path the domain's 404 page:
 * never the app, the API, the stored files or the metrics. An unknown name or a domain not verified
 * yet serves nothing at all (a page that says nothing), but Caddy's certificate question. A domain
 * an operator disabled answers 410 for its addresses and its root.
 */
export function siteGate(hostedDomains: Pick<HostedDomains, 'siteOf'>, publicOrigin: string): onRequestHookHandler {
  // As the fast path: the last raw Host header that named the instance costs one comparison.
  let instanceHost: string | undefined = undefined;
  return (request, reply, done) => {
    const host = request.headers.host;
    if (host === instanceHost) return done();
    const site = hostedDomains.siteOf(host);
    if (site === 'instance') {
      instanceHost = host;
      return done();
    }
    const { method } = request;
    const read = method === 'GET' || method === 'HEAD';
    const path = pathOf(request.url);
    if (site === 'unknown' || !site.verified) {
      if (read && path === TLS_ALLOWED_PATH) return done();
      return void sendUnknownHostPage(reply);
    }
    request.site = site;
    if (path === '/') {
      if (!read) return void sendDomainNotFoundPage(reply);
      return void sendDomainRoot(reply, site, publicOrigin);
    }
    if (read && path === VISITOR_STYLE_PATH) return done();
    if ((read || method === 'POST') && isCodePath(path)) {
      if (site.disabled) return void sendDisabledPage(reply, `${siteOrigin(site)}${path}`, publicOrigin);
      return done();
    }
    return void sendDomainNotFoundPage(reply);
  };
}

function sendDomainRoot(reply: FastifyReply, site: HostedDomain, publicOrigin: string) {
  if (site.disabled) return sendDisabledPage(reply, `${siteOrigin(site)}/`, publicOrigin);
  if (site.rootRedirect === null) return sendDomainRootPage(reply);
  return reply.headers(staticSecurityHeaders).header('cache-control', 'no-store').redirect(site.rootRedirect, 302);
}

/**
 * An address not found on a custom domain: its notFoundRedirect, or its 404 page. Undefined on the
 * instance's own host, whose caller answers as it always did.
 */
export function sendDomainMiss(request: FastifyRequest, reply: FastifyReply) {
  const site = request.site;
  if (site === null) return undefined;
  if (site.notFoundRedirect === null) return sendDomainNotFoundPage(reply);
  return reply.headers(staticSecurityHeaders).header('cache-control', 'no-store').redirect(site.notFoundRedirect, 302);
}

/** Every request's site, decided before any route (and before the refusal of cross-site writes). */
export function registerSiteGate(app: FastifyInstance, hostedDomains: Pick<HostedDomains, 'siteOf'>, publicBaseUrl: string) {
  app.decorateRequest('site', null);
  app.addHook('onRequest', siteGate(hostedDomains, new URL(publicBaseUrl).origin));
}
