import { isReservedPath } from '@common/reserved-paths';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context';
import type { CachedLink } from './link-cache';
import { staticSecurityHeaders } from '../http/security-headers';
import { sendNotFoundPage } from './not-found-page';

// Short codes are 6 base-36 characters, aliases 3 to 50 of letters, digits, '-' and '_':
// anything else cannot be a link, and is answered without asking the database.
const possibleCode = /^[A-Za-z0-9_-]{1,50}$/;

type Context = Pick<AppContext, 'config' | 'linkCache' | 'clickWriter'>;

/**
 * GET and HEAD /:code, the hot path: 1. look up (in memory on a hit, no await), 2. missing: 404,
 * 3. redirect, 4. record (queued; the writer enriches and stores it off the request).
 */
export async function redirectRoutes(app: FastifyInstance, { config, linkCache, clickWriter }: Context) {
  // One logger for every redirect, made once: no pino child per request (a fifth of the
  // route's cost), and at 'warn' no access line either, which would also write each
  // visitor's IP address to the logs, which we promise not to keep. Errors still log.
  const quietLog = app.log.child({ route: 'redirect' }, { level: 'warn' });

  const redirect = (request: FastifyRequest, reply: FastifyReply, link: CachedLink) => {
    // HEAD only asks where the link goes (link checkers, some previews): not a visit.
    if (request.method === 'GET') {
      clickWriter.record({
        urlId: link.id,
        at: Date.now(),
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        referrer: request.headers.referer,
      });
    }
    // The click is queued before the answer leaves, so a drain on shutdown always includes it.
    return reply.code(302).header('location', link.url).header('cache-control', 'no-store').send();
  };

  app.route({
    method: ['GET', 'HEAD'],
    url: '/:code',
    childLoggerFactory: () => quietLog,
    // The security headers as fixed values, in one call, instead of helmet's per-request hook.
    helmet: false,
    handler(request, reply) {
      reply.headers(staticSecurityHeaders);
      const { code } = request.params as { code: string };
      if (isReservedPath(code)) return reply.callNotFound(); // the web app's own screens
      const hit = linkCache.peek(code);
      if (hit) return redirect(request, reply, hit);
      if (!possibleCode.test(code)) return sendNotFoundPage(reply, config.webDir);
      return linkCache.resolve(code).then((link) =>
        link ? redirect(request, reply, link) : sendNotFoundPage(reply, config.webDir),
      );
    },
  });
}
