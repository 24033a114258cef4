import { describeAgent, type DeviceType } from './device';
import type { Geo } from './geo';
import { referrerDomain } from './referrer';
import { createVisitorHasher, dayOf } from './visitors';

/** A redirect as the hot path hands it over: raw, so the request pays nothing for enrichment. */
export interface Visit {
  urlId: number;
  at: number;
  ip: string;
  userAgent: string | undefined;
  referrer: string | undefined;
  /** A place of the link's click limit taken in memory (SQLite): written with the click. */
  limited?: boolean;
  /** Set only for a visit from a QR code (?qr=1): it counts as a scan as well as a click. */
  scan?: true;
  /** Where a rule or an A/B variant sent it (link_destinations.id); absent for the link's own URL. */
  destinationId?: number;
}

/**
 * What a visit tells about the visitor, with the IP gone: the same for every click from one
 * address, agent and referrer on one day, so it is worked out once and shared by those clicks.
 */
export interface ClickDetails {
  day: number;
  country: string;
  city: string;
  device: DeviceType;
  browser: string | null;
  os: string | null;
  referrer: string | null;
  isBot: boolean;
  visitorHash: string;
}

/** A visit with everything the statistics need. Clicks alike share one `details` object. */
export interface EnrichedClick {
  urlId: number;
  at: number;
  details: ClickDetails;
  /** Took a place of the link's click limit (Visit.limited). */
  limited?: boolean;
  /** A QR scan (set only then). */
  scan?: true;
}

// Visitors click in bursts, and a popular link's clicks come from far fewer visitors than clicks:
// remembering recent details saves the parse, the lookups and the hash for each repeat.
const REMEMBERED_DETAILS = 10_000;

export function createEnricher(geo: Geo): (visit: Visit) => EnrichedClick {
  const visitorHash = createVisitorHasher();
  const recent = new Map<string, ClickDetails>();

  const describe = (visit: Visit, day: number): ClickDetails => {
    const agent = describeAgent(visit.userAgent);
    const { country, city } = geo.locate(visit.ip);
    return {
      day,
      country,
      city,
      device: agent.device,
      browser: agent.browser,
      os: agent.os,
      referrer: referrerDomain(visit.referrer),
      isBot: agent.isBot,
      visitorHash: visitorHash(day, visit.ip, visit.userAgent),
    };
  };

  return (visit) => {
    const day = dayOf(visit.at);
    const key = `${day}\u0000${visit.ip}\u0000${visit.userAgent ?? ''}\u0000${visit.referrer ?? ''}`;
    let details = recent.get(key);
    if (!details) {
      details = describe(visit, day);
      if (recent.size >= REMEMBERED_DETAILS) recent.clear();
      recent.set(key, details);
    }
    if (!visit.limited && !visit.scan) return { urlId: visit.urlId, at: visit.at, details };
    const enriched: EnrichedClick = { urlId: visit.urlId, at: visit.at, details };
    if (visit.limited) enriched.limited = true;
    if (visit.scan) enriched.scan = true;
    return enriched;
  };
}
