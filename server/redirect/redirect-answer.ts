import type { IncomingMessage, ServerResponse } from 'node:http';
import { chooseDestination } from '@common/rules/choose-destination';
import type { ClickWriter } from '../clicks/click-writer';
import type { Visit } from '../clicks/enrich';
import type { GeoLog } from '../clicks/geo';
import { staticSecurityHeaders, strictTransportSecurity } from '../http/security-headers';
import { VisitBucket } from '../rules/variant-bucket';
import { openRulesGeo, VisitTraits } from '../rules/visitor-traits';
import { isBotAgent } from '../clicks/bots';
import { previewHeaders, previewPage } from '../previews/preview-page';
import type { CachedLink, CachedPreview, LinkRoute } from './link-cache';
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
  /** Hears if the geo database the country rules need cannot be read. */
  log?: GeoLog;
  /** A preview image's absolute address from its storage key (previewImageUrl). */
  previewImageUrl?(key: string): string;
}

// 301 and 308 say "for good": browsers keep them, so a visitor's next visits skip Corto (and are
// not counted). Kept a day rather than for ever, so that an edit of the link reaches everyone by
// the next day; private, since a link with rules answers each visitor their own way.
const PERMANENT_CACHE = 'private, max-age=86400';
const permanent = (status: number | undefined) => status === 301 || status === 308;

/**
 * The redirect for a known link, written straight to Node's response: the one answer both the
 * fast path and the Fastify route give. A GET is queued as a click before the answer leaves, so a
 * drain on shutdown always includes it; HEAD only asks where the link goes (link checkers, some
 * previews) and is not a visit. A link with rules or A/B variants (`route`) chooses its
 * destination here for each visit (docs/rules.md), from memory alone.
 */
export function createRedirectAnswer({
  clickWriter,
  clientAddress,
  https = false,
  log = { error() {} },
  previewImageUrl = (key) => `/storage/previews/${encodeURIComponent(key)}`,
}: RedirectAnswerOptions) {
  // Everything but the Location, flattened once: writeHead takes the list as it is.
  const security = [...Object.entries(staticSecurityHeaders).flat(), ...(https ? ['strict-transport-security', strictTransportSecurity] : [])];
  const fixedHeaders = ['cache-control', 'no-store', 'content-length', '0', ...security];
  const permanentHeaders = ['cache-control', PERMANENT_CACHE, 'content-length', '0', ...security];
  const fixedOf = (link: CachedLink) => (permanent(link.status) ? permanentHeaders : fixedHeaders);
  // Each cached link's whole header list, built on its first redirect rather than on every one.
  const headersOf = new WeakMap<CachedLink, string[]>();
  // A routed link's, one list per destination: its rules', its variants', then its own URL's.
  const routeHeadersOf = new WeakMap<LinkRoute, string[][]>();

  const previewPageHeaders = previewHeaders(https);
  /**
   * A preview bot's visit of a link with a preview: its card, 200, counted as the bot's visit it
   * is (the click writer flags it by its User-Agent). The short link as asked is og:url.
   */
  const answerPreview = (request: IncomingMessage, response: ServerResponse, link: CachedLink, preview: CachedPreview, countClick: boolean) => {
    if (countClick) clickWriter.record({ urlId: link.id, at: Date.now(), ip: clientAddress(request), userAgent: request.headers['user-agent'], referrer: request.headers.referer });
    const url = request.url!;
    const queryAt = url.indexOf('?');
    const address = `${https ? 'https' : 'http'}://${request.headers.host ?? ''}${queryAt === -1 ? url : url.slice(0, queryAt)}`;
    const card = { title: preview.title, description: preview.description, image: preview.imageKey === null ? null : previewImageUrl(preview.imageKey) };
    const body = previewPage(card, address, link.url);
    response.writeHead(200, [...previewPageHeaders, 'content-length', String(Buffer.byteLength(body))]);
    response.end(body);
  };

  /** A link with rules or variants: the same answer, to the destination chosen for this visit. */
  const answerRouted = (request: IncomingMessage, response: ServerResponse, link: CachedLink, route: LinkRoute, countClick: boolean, limited: boolean) => {
    if (route.needsCountry) openRulesGeo(log);
    const traits = new VisitTraits(request, clientAddress);
    const bucket = new VisitBucket(request, link.id, traits, https);
    // No named function made per visit: the build keeps names (keepNames), which costs each one a
    // defineProperty.
    const chosen = chooseDestination({ url: link.url, rules: route.rules, variants: route.variants }, traits, () => bucket.draw());
    const ruleCount = route.rules?.length ?? 0;
    const slot = chosen.source === 'rule' ? chosen.index : chosen.source === 'variant' ? ruleCount + chosen.index : ruleCount + (route.variants?.length ?? 0);
    // 0: the link's own URL (or a destination without its row), which the writer counts per
    // destination too; a plain link's visit carries none.
    const destinationId = (chosen.source === 'rule' ? route.ruleIds[chosen.index] : chosen.source === 'variant' ? route.variantIds[chosen.index] : undefined) ?? 0;

    const url = request.url!;
    const queryAt = url.indexOf('?');
    const query = queryAt === -1 ? undefined : visitQuery(url.slice(queryAt + 1), link, chosen.url);
    if (countClick) {
      const visit: Visit = {
        urlId: link.id,
        at: traits.now(),
        ip: traits.ip(),
        userAgent: request.headers['user-agent'],
        referrer: request.headers.referer,
      };
      if (limited) visit.limited = true;
      if (query?.scan) visit.scan = true;
      visit.destinationId = destinationId;
      clickWriter.record(visit);
    }
    let headers: string[];
    if (query?.location !== undefined) headers = ['location', query.location, ...fixedOf(link)];
    else {
      let lists = routeHeadersOf.get(route);
      if (!lists) routeHeadersOf.set(route, (lists = []));
      headers = lists[slot] ??= ['location', chosen.url, ...fixedOf(link)];
    }
    if (bucket.cookie !== undefined) headers = ['set-cookie', bucket.cookie, ...headers];
    response.writeHead(link.status ?? 302, headers);
    response.end();
  };

  // countClick: a GET unless told (an unlocked password form is a POST that counts). limited: the
  // visit took a place of a click limit counted in memory, written with the click (SQLite).
  return (
    request: IncomingMessage,
    response: ServerResponse,
    link: CachedLink,
    countClick = request.method === 'GET',
    limited = false,
  ): void => {
    // A plain link pays one test for a preview; only a link with one asks who is visiting.
    if (link.preview !== undefined && isBotAgent(request.headers['user-agent'] ?? '')) return answerPreview(request, response, link, link.preview, countClick);
    // A plain link pays this one test for the rules.
    if (link.route !== undefined) return answerRouted(request, response, link, link.route, countClick, limited);
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
    if (query?.location !== undefined) headers = ['location', query.location, ...fixedOf(link)];
    else if (!headers) headersOf.set(link, (headers = ['location', link.url, ...fixedOf(link)]));
    response.writeHead(link.status ?? 302, headers);
    response.end();
  };
}

export type RedirectAnswer = ReturnType<typeof createRedirectAnswer>;
