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
}

/** A visit with everything the statistics need, and the IP gone. */
export interface EnrichedClick {
  urlId: number;
  at: number;
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

export function createEnricher(geo: Geo): (visit: Visit) => EnrichedClick {
  const visitorHash = createVisitorHasher();
  return (visit) => {
    const agent = describeAgent(visit.userAgent);
    const { country, city } = geo.locate(visit.ip);
    const day = dayOf(visit.at);
    return {
      urlId: visit.urlId,
      at: visit.at,
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
}
