import { QR_SCAN_PARAMETER } from '@common/links/qr-options';
import { changesOfQuery, mergeQuery, pairValue } from '@common/links/query-merge';
import type { CachedLink } from './link-cache';

// What a visit's own query string changes: ?qr=1 marks a scan of the link's QR code, and a link
// with forwardQuery passes the rest of the query on to its destination. Only visits that carry a
// query come here; a plain visit of a plain link pays one indexOf for it (redirect-answer.ts).

export interface VisitQuery {
  /** The visit came from a QR code (qr=1). */
  scan: boolean;
  /** The destination with the visit's query merged in; undefined for the link's own. */
  location: string | undefined;
}

const NOTHING: VisitQuery = { scan: false, location: undefined };
// Printable ASCII without spaces: what a Location header takes as it is.
const unsafe = /[^\x21-\x7e]/g;

/** `query`: the request target after its '?', raw. `destination`: where the visit goes (a rule's or a variant's URL). */
export function visitQuery(query: string, link: CachedLink, destination = link.url): VisitQuery {
  const hashAt = query.indexOf('#');
  const own = hashAt === -1 ? query : query.slice(0, hashAt);
  // Most links do not forward: a query without 'qr' in it is then nothing to them.
  if (!link.forwardQuery && !own.includes(QR_SCAN_PARAMETER)) return NOTHING;
  const changes = changesOfQuery(own);
  const qr = changes.find((change) => change.key === QR_SCAN_PARAMETER);
  const scan = qr !== undefined && qr.pairs.some((pair) => pairValue(pair) === '1');
  if (!link.forwardQuery) return scan ? { scan, location: undefined } : NOTHING;
  // `qr` is ours: it never reaches the destination.
  const forwarded = changes.filter((change) => change !== qr);
  if (forwarded.length === 0) return { scan, location: undefined };
  const location = mergeQuery(destination, forwarded).replace(unsafe, (character) => encodeURIComponent(character));
  return { scan, location };
}
