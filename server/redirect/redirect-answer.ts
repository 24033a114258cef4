import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClickWriter } from '../clicks/click-writer';
import type { Visit } from '../clicks/enrich';
import { staticSecurityHeaders, strictTransportSecurity } from '../http/security-headers';
import type { CachedLink } from './link-cache';
import { visitQuery } from './visit-query';

export interface RedirectAnswerOptions {
  clickWriter: Pick<ClickWriter, 'record'>;
  clientAddress(request: IncomingMessage): string;
  /**
   * Strict-Transport-Security too (the public address is https): a visitor's first contact with
   * the domain is often a short link. No Cross-Origin-Resource-Policy: a link is followed from
   * anywhere, an <img> on another site included.
   */
  https?: boolean;
}

/**
 * The 302 for a known link, written straight to Node's response: the one answer both the fast
 * path and the Fastify route give. A GET is queued as a click before the answer leaves, so a drain
 * on shutdown always includes it; HEAD only asks where the link goes (link checkers, some
 * previews) and is not a visit.
 */
export function createRedirectAnswer({ clickWriter, clientAddress, https = false }: RedirectAnswerOptions) {
  // Everything but the Location, flattened once: writeHead takes the list as it is.
  const fixedHeaders = [
    'cache-control',
    'no-store',
    'content-length',
    '0',
    ...Object.entries(staticSecurityHeaders).flat(),
    ...(https ? ['strict-transport-security', strictTransportSecurity] : []),
  ];
  // Each cached link's whole header list, built on its first redirect rather than on every one.
  const headersOf = new WeakMap<CachedLink, string[]>();
  // countClick: a GET unless told (an unlocked password form is a POST that counts). limited: the
  // visit took a place of a click limit counted in memory, written with the click (SQLite).
  return (
    request: IncomingMessage,
    response: ServerResponse,
    link: CachedLink,
    countClick = request.method === 'GET',
    limited = false,
  ): void => {
    // A visit with a query string may be a QR scan (?qr=1) or carry a query to forward.
    const url = request.url!;
    const queryAt = url.indexOf('?');
    const query = queryAt === -1 ? undefined : visitQuery(url.slice(queryAt + 1), link);
    if (countClick) {
      const visit: Visit = {
        urlId: link.id,
        at: Date.now(),
        ip: clientAddress(request),
        userAgent: request.headers['user-agent'],
        referrer: request.headers.referer,
      };
      if (limited) visit.limited = true;
      if (query?.scan) visit.scan = true;
      clickWriter.record(visit);
    }
    let headers = headersOf.get(link);
    if (query?.location !== undefined) headers = ['location', query.location, ...fixedHeaders];
    else if (!headers) headersOf.set(link, (headers = ['location', link.url, ...fixedHeaders]));
    response.writeHead(302, headers);
    response.end();
  };
}

export type RedirectAnswer = ReturnType<typeof createRedirectAnswer>;
