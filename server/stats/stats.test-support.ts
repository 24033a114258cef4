import type { LinkStats } from '@common/stats/stats-schemas';
import { writeClickBatch } from '../clicks/click-batch';
import type { ClickDetails } from '../clicks/enrich';
import { DAY_MS, dayOf } from '../clicks/visitors';
import type { TestApp } from '../test/test-app';

/** GET /api/links/:id/stats as the holder of `cookie`. */
export function requestStats(t: TestApp, id: number | string, cookie?: string, query = '') {
  return t.app.inject({ method: 'GET', url: `/api/links/${id}/stats${query}`, headers: cookie ? { cookie } : {} });
}

export async function statsOf(t: TestApp, id: number, cookie: string, query = ''): Promise<LinkStats> {
  const response = await requestStats(t, id, cookie, query);
  if (response.statusCode !== 200) throw new Error(`stats: ${response.statusCode} ${response.body}`);
  return response.json() as LinkStats;
}

/** A visit to the short address through the real redirect route, from `ip` with `headers`. */
export async function visit(t: TestApp, code: string, ip: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') {
  const response = await t.app.inject({ method, url: `/${code}`, headers, remoteAddress: ip });
  if (response.statusCode !== 302) throw new Error(`visit /${code}: ${response.statusCode}`);
}

/**
 * Clicks on earlier days, written by the click writer's own transaction (rows, roll-ups,
 * visitors): the redirect route can only record "now".
 */
export async function writePastClicks(t: TestApp, urlId: number, clicks: Array<Partial<ClickDetails> & { daysAgo: number }>) {
  const now = Date.now();
  await writeClickBatch(
    t.database.db,
    clicks.map(({ daysAgo, ...details }, i) => {
      const at = now - daysAgo * DAY_MS;
      return {
        urlId,
        at,
        details: {
          day: dayOf(at),
          country: 'ES',
          city: 'Madrid',
          device: 'desktop',
          browser: 'Firefox',
          os: 'Linux',
          referrer: null,
          isBot: false,
          visitorHash: `past-${daysAgo}-${i}`,
          ...details,
        },
      };
    }),
  );
}
