import { isReservedPath } from '@common/reserved-paths';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context';
import { clientKey } from '../http/client-key';
import { staticSecurityHeaders } from '../http/security-headers';
import type { CrossOriginRouteConfig } from '../auth/cross-origin';
import { createGatedVisits, isOpen } from './gated-visit';
import type { CachedLink } from './link-cache';
import { createMissThrottle } from './miss-throttle';
import { sendNotFoundPage } from './not-found-page';
import type { RedirectAnswer } from './redirect-answer';
import { possibleAddress } from './path-address';
import { possibleCode } from './redirect-fast-path';
import { sendDomainMiss, siteOrigin } from './site-gate';
import { sendTooManyMissesPage } from './too-many-misses-page';
import { visitorStyleRoute } from './visitor-style';
import { sendDomainNotFoundPage, sendForeignFormPage } from './visitor-pages';
import { named } from '../http/plugin-name';

type Context = Pick<AppContext, 'config' | 'linkCache' | 'database' | 'clickLimits' | 'limiters'> & { answer: RedirectAnswer };

// A password is all a visitor posts.
const FORM_BODY_LIMIT = 4096;

/**
 * GET and HEAD /:code when the fast path in front of Fastify did not answer: a link not cached
 * yet (looked up, then remembered), an unknown code (Spanish 404), a reserved path (the web app),
 * or any request while the server is closing. A found link gets the fast path's very answer.
 * A client that asks for too many unknown codes (REDIRECT_MISS_LIMIT a minute) is guessing: its
 * lookups of codes not in the cache get a 429 page until the minute is over, so the guesses
 * stop reaching the database; a cached link is still answered, to anyone.
 * On a custom domain (request.site, set by the site gate) the address is looked up under the
 * domain's key, and a miss is the domain's: its notFoundRedirect or its own 404 page.
 */
export async function redirectRoutes(app: FastifyInstance, { config, linkCache, answer, database, clickLimits, limiters }: Context) {
  // One logger for every redirect, made once: no pino child per request, and at 'warn' no access
  // line either, which would also write each visitor's IP address to the logs, which we promise
  // not to keep. Errors still log.
  const quietLog = app.log.child({ route: 'redirect' }, { level: 'warn' });
  // With Redis, every instance's misses add up (the shared count), without the redirect waiting on it.
  const misses = createMissThrottle({
    limit: config.redirectMissLimit,
    shared: limiters.shared ? limiters.create({ name: 'redirect-miss', points: config.redirectMissLimit, durationSeconds: 60 }) : undefined,
  });
  const gated = createGatedVisits({ db: database.db, limits: clickLimits, answer, publicOrigin: new URL(config.publicBaseUrl).origin, limiters });

  /** An address that leads nowhere (or cannot exist): the domain's answer, or the instance's 404 page. */
  const sendMiss = (request: FastifyRequest, reply: FastifyReply) => sendDomainMiss(request, reply) ?? sendNotFoundPage(reply, config.webDir);
  /** A path of the app's: the app on the instance, the 404 page on a custom domain. */
  const sendAppPath = (request: FastifyRequest, reply: FastifyReply) =>
    request.site === null ? reply.callNotFound() : sendDomainNotFoundPage(reply);

  /** The link behind an address's key, from the cache or the database; undefined after a 404 or 429 page is sent. */
  const linkOf = async (request: FastifyRequest, reply: FastifyReply, key: string) => {
    const cached = linkCache.peek(key);
    if (cached) return cached;
    // request.ip: the client as TRUST_PROXY says to read it.
    const client = clientKey(request.ip);
    const wait = misses.waitOf(client);
    if (wait > 0) {
      await sendTooManyMissesPage(reply, wait);
      return undefined;
    }
    const link = await linkCache.resolve(key);
    if (!link) {
      await misses.miss(client);
      await sendMiss(request, reply);
    }
    return link;
  };

  app.route({
    method: ['GET', 'HEAD'],
    url: '/:code',
    childLoggerFactory: () => quietLog,
    // The security headers as fixed values instead of helmet's per-request hook.
    helmet: false,
    handler(request, reply) {
      const { code } = request.params as { code: string };
      reply.headers(staticSecurityHeaders);
      if (isReservedPath(code)) return sendAppPath(request, reply); // the web app's own screens
      // The router has percent-decoded the parameter already; NFC and the alias rule remain. Not a
      // possible address: answered without the database, and says nothing about which codes exist.
      const address = possibleCode.test(code) ? code : possibleAddress(code);
      if (address === undefined) return sendMiss(request, reply);
      const key = request.site === null ? address : request.site.keyPrefix + address;
      const redirect = (link: CachedLink) => {
        if (!isOpen(link, Date.now())) return gated.visit(request, reply, link, link.gate!);
        reply.hijack();
        answer(request.raw, reply.raw, link);
      };
      const cached = linkCache.peek(key);
      if (cached) return redirect(cached);
      // Without a link, linkOf has sent its page already.
      return linkOf(request, reply, key).then((link) => (link ? redirect(link) : undefined));
    },
  });

  visitorStyleRoute(app);

  // The password form of a protected link posts here. Form bodies are taken in this scope only:
  // the API refuses them.
  app.register(named('formRedirectRoutes', async (forms) => {
    forms.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => done(null, new URLSearchParams(body as string)),
    );
    forms.route({
      method: 'POST',
      url: '/:code',
      // The app's cross-origin refusal, for a visitor: the Spanish page rather than JSON. On a
      // custom domain the form is posted from the domain's own origin.
      config: {
        sendCrossOriginRefusal: sendForeignFormPage,
        pageOrigin: (request) => (request.site === null ? undefined : siteOrigin(request.site)),
      } satisfies CrossOriginRouteConfig,
      childLoggerFactory: () => quietLog,
      helmet: false,
      async handler(request, reply) {
        const { code } = request.params as { code: string };
        reply.headers(staticSecurityHeaders);
        if (isReservedPath(code)) return sendAppPath(request, reply);
        const address = possibleCode.test(code) ? code : possibleAddress(code);
        if (address === undefined) return sendMiss(request, reply);
        const link = await linkOf(request, reply, request.site === null ? address : request.site.keyPrefix + address);
        if (!link) return reply; // its page is sent
        if (link.gate === undefined) return reply.header('cache-control', 'no-store').redirect(`/${encodeURIComponent(address)}`, 303);
        return gated.unlock(request, reply, link, link.gate, address);
      },
    });
  }));
}
