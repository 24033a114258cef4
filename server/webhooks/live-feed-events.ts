import { UNKNOWN_LOCATION } from '@common/constants';
import type { ClickEventData } from '@common/webhooks/webhook-schemas';
import type { FastifyBaseLogger } from 'fastify';
import { describeAgent } from '../clicks/device';
import type { Visit } from '../clicks/enrich';
import { type Geo, openGeo } from '../clicks/geo';
import { referrerDomain } from '../clicks/referrer';
import type { Database } from '../db/database';
import { domainHostnamesOf } from '../links/link-domain';
import { shortLinkOf } from '../links/link-mapper';

/**
 * Turns written visits of watched links into the live feed's events. The writer's thread enriches
 * its batches for the statistics; the few visits someone watches are described again here, on
 * demand, so a batch nobody watches costs nothing more than a scan of its link ids.
 */
export function createClickEventBuilder({ db, publicBaseUrl, log }: { db: Database; publicBaseUrl: string; log: FastifyBaseLogger }) {
  // The IP database opens on the first watched click only (it is shared with any other user in the process).
  let geo: Geo | undefined;
  const located = (ip: string) => {
    geo ??= openGeo(log);
    const { country, city } = geo.locate(ip);
    return { country: country === UNKNOWN_LOCATION ? null : country, city: city === UNKNOWN_LOCATION ? null : city };
  };

  return async function build(visits: Visit[]): Promise<ClickEventData[]> {
    if (visits.length === 0) return [];
    geo ??= openGeo(log);
    await geo.ready;
    const linkIds = [...new Set(visits.map((visit) => visit.urlId))];
    const links = await db
      .selectFrom('urls')
      .select(['id', 'short_url', 'custom_url', 'domain_id', 'original_url'])
      .where('id', 'in', linkIds)
      .execute();
    const destinationIds = [...new Set(visits.map((visit) => visit.destinationId).filter((id): id is number => id !== undefined && id > 0))];
    const destinations =
      destinationIds.length === 0
        ? new Map<number, string>()
        : new Map(
            (await db.selectFrom('link_destinations').select(['id', 'url']).where('id', 'in', destinationIds).execute()).map((row) => [Number(row.id), row.url]),
          );
    const hostnames = await domainHostnamesOf(db, links.map((link) => link.domain_id));
    const byId = new Map(links.map((link) => [Number(link.id), link]));

    const events: ClickEventData[] = [];
    for (const visit of visits) {
      const link = byId.get(visit.urlId);
      // Deleted since the click: nobody may watch it any more.
      if (!link) continue;
      const agent = describeAgent(visit.userAgent);
      events.push({
        linkId: visit.urlId,
        shortLink: shortLinkOf(publicBaseUrl, {
          shortCode: link.short_url,
          customUrl: link.custom_url,
          domain: link.domain_id === null ? null : (hostnames.get(Number(link.domain_id)) ?? null),
        }),
        clickedAt: new Date(visit.at).toISOString(),
        destination: (visit.destinationId ? destinations.get(visit.destinationId) : undefined) ?? link.original_url,
        ...located(visit.ip),
        device: agent.device,
        browser: agent.browser,
        os: agent.os,
        referrer: referrerDomain(visit.referrer),
        bot: agent.isBot,
        qr: visit.scan === true,
      });
    }
    return events;
  };
}
