import { isReservedPath } from '@common/reserved-paths';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';
import { staticSecurityHeaders } from '../http/security-headers';
import { sendNotFoundPage } from './not-found-page';
import type { RedirectAnswer } from './redirect-answer';
import { possibleAddress } from './path-address';
import { possibleCode } from './redirect-fast-path';

type Context = Pick<AppContext, 'config' | 'linkCache'> & { answer: RedirectAnswer };

/**
 * GET and HEAD /:code when the fast path in front of Fastify did not answer: a link not cached
 * yet (looked up, then remembered), an unknown code (Spanish 404), a reserved path (the web app),
 * or any request while the server is closing. A found link gets the fast path's very answer.
 */
export async function redirectRoutes(app: FastifyInstance, { config, linkCache, answer }: Context) {
  // One logger for every redirect, made once: no pino child per request, and at 'warn' no access
  // line either, which would also write each visitor's IP address to the logs, which we promise
  // not to keep. Errors still log.
  const quietLog = app.log.child({ route: 'redirect' }, { level: 'warn' });

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
      // The router has percent-decoded the parameter already; NFC and the alias rule remain.
      const address = possibleCode.test(code) ? code : possibleAddress(code);
      if (address === undefined) return sendNotFoundPage(reply, config.webDir);
      return linkCache.resolve(address).then((link) => {
        if (!link) return sendNotFoundPage(reply, config.webDir);
        reply.hijack();
        answer(request.raw, reply.raw, link);
      });
    },
  });
}
