import { isReservedPath } from '@common/reserved-paths';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';
import { clientKey } from '../http/client-key';
import { staticSecurityHeaders } from '../http/security-headers';
import type { CachedLink } from './link-cache';
import { createMissThrottle } from './miss-throttle';
import { sendNotFoundPage } from './not-found-page';
import type { RedirectAnswer } from './redirect-answer';
import { possibleAddress } from './path-address';
import { possibleCode } from './redirect-fast-path';
import { sendTooManyMissesPage } from './too-many-misses-page';

type Context = Pick<AppContext, 'config' | 'linkCache'> & { answer: RedirectAnswer };

/**
 * GET and HEAD /:code when the fast path in front of Fastify did not answer: a link not cached
 * yet (looked up, then remembered), an unknown code (Spanish 404), a reserved path (the web app),
 * or any request while the server is closing. A found link gets the fast path's very answer.
 * A client that asks for too many unknown codes (REDIRECT_MISS_LIMIT a minute) is guessing: its
 * lookups of codes not in the cache get a 429 page until the minute is over, so the guesses
 * stop reaching the database; a cached link is still answered, to anyone.
 */
export async function redirectRoutes(app: FastifyInstance, { config, linkCache, answer }: Context) {
  // One logger for every redirect, made once: no pino child per request, and at 'warn' no access
  // line either, which would also write each visitor's IP address to the logs, which we promise
  // not to keep. Errors still log.
  const quietLog = app.log.child({ route: 'redirect' }, { level: 'warn' });
  const misses = createMissThrottle({ limit: config.redirectMissLimit });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/:code',
    childLoggerFactory: () => quietLog,
    // The security headers as fixed values instead of helmet's per-request hook.
    helmet: false,
    handler(request, reply) {
      const { code } = request.params as { code: string };
      reply.headers(staticSecurityHeaders);
      if (isReservedPath(code)) return reply.callNotFound(); // the web app's own screens
      // The router has percent-decoded the parameter already; NFC and the alias rule remain. Not a
      // possible address: answered without the database, and says nothing about which codes exist.
      const address = possibleCode.test(code) ? code : possibleAddress(code);
      if (address === undefined) return sendNotFoundPage(reply, config.webDir);
      const redirect = (link: CachedLink) => {
        reply.hijack();
        answer(request.raw, reply.raw, link);
      };
      const cached = linkCache.peek(address);
      if (cached) return redirect(cached);
      // request.ip: the client as TRUST_PROXY says to read it.
      const client = clientKey(request.ip);
      const wait = misses.waitOf(client);
      if (wait > 0) return sendTooManyMissesPage(reply, wait);
      return linkCache.resolve(address).then((link) => {
        if (link) return redirect(link);
        misses.miss(client);
        return sendNotFoundPage(reply, config.webDir);
      });
    },
  });
}
