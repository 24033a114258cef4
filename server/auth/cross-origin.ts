import { authMessages } from '@common/auth/auth-messages';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../http/app-error';
import { SESSION_COOKIE } from './sessions';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SESSION_COOKIE_PAIR = `${SESSION_COOKIE}=`;

/**
 * Refuses, with 403, a state-changing request that a page on another site made a browser send:
 * - one whose Origin is not ours, or that the browser marks Sec-Fetch-Site cross-site or
 *   same-site, with or without a cookie (signing a signed-out visitor into the attacker's account
 *   needs none);
 * - one carrying the session cookie without either a matching Origin or Sec-Fetch-Site:
 *   same-origin (browsers send one or the other on every same-origin write; a script signed in
 *   with a cookie sends Origin itself).
 * A script with neither a cookie nor those headers (curl, a bookmarklet-free client) passes.
 *
 * It looks at every write whatever its path: the router decodes '/%61pi/...' to the API's routes,
 * so a test on the raw URL could be walked around. Synchronous and read-only (no promise, no
 * parsing): it runs on every request, and a GET leaves at the first test.
 */
/** What a route for people may put in its config to answer a refusal with a page, not the API's envelope. */
export interface CrossOriginRouteConfig {
  sendCrossOriginRefusal?: (reply: FastifyReply) => unknown;
  /**
   * Another origin this route's own page is served from for this request (a custom domain's
   * visitors' form), or undefined: taken as ours for this route only, never for the API.
   */
  pageOrigin?: (request: FastifyRequest) => string | undefined;
}

export function refuseCrossOrigin(config: Config): onRequestHookHandler {
  const publicOrigin = new URL(config.publicBaseUrl).origin;
  const ownOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
  const pageOriginOf = (request: FastifyRequest) => (request.routeOptions.config as CrossOriginRouteConfig | undefined)?.pageOrigin?.(request);
  return (request, reply, done) => {
    if (!STATE_CHANGING.has(request.method)) return done();
    // A bearer request is authenticated by its token alone, never by the cookie; and no page on
    // another site can make a browser send an Authorization header (that needs CORS, which we grant
    // only to browser extensions' origins, and never with cookies: tokens/extension-cors.ts).
    if (request.headers.authorization?.slice(0, 7).toLowerCase() === 'bearer ') return done();
    const { origin, cookie } = request.headers;
    const site = request.headers['sec-fetch-site'];
    const ours = origin !== undefined && (origin === publicOrigin || origin === ownOrigin(request) || origin === pageOriginOf(request));
    const foreign = (origin !== undefined && !ours) || site === 'cross-site' || site === 'same-site';
    const unvouchedCookie = !ours && site !== 'same-origin' && cookie !== undefined && cookie.includes(SESSION_COOKIE_PAIR);
    if (!foreign && !unvouchedCookie) return done();
    // A page for people (a protected link's password form) answers with a page of its own.
    const page = (request.routeOptions.config as CrossOriginRouteConfig | undefined)?.sendCrossOriginRefusal;
    if (page) return void page(reply);
    // Neither header at all: no browser sends a write so, a script does; tell it what to send.
    const bare = origin === undefined && site === undefined;
    done(new AppError('forbidden', bare ? authMessages.cookieWithoutOrigin : authMessages.crossOrigin));
  };
}
