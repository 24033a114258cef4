import type { Rule, Variant } from '@common/rules/rule-schemas';
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
 * visitors): the redirect route can only record "now". `destinationId` as the redirect sets it
 * for a link with rules or variants (0: the link's own URL).
 */
export async function writePastClicks(t: TestApp, urlId: number, clicks: Array<Partial<ClickDetails> & { daysAgo: number; destinationId?: number }>) {
  const now = Date.now();
  await writeClickBatch(
    t.database.db,
    clicks.map(({ daysAgo, destinationId, ...details }, i) => {
      const at = now - daysAgo * DAY_MS;
      return {
        urlId,
        at,
        ...(destinationId === undefined ? {} : { destinationId }),
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

/**
 * Gives a link rules and A/B variants as the links API stores them (urls.rules and urls.variants
 * as JSON, a link_destinations row for each URL): the statistics' tests need the rows, not the API.
 * Returns each destination's id, keyed `${source} ${url}`.
 */
export async function routeLink(
  t: TestApp,
  urlId: number,
  { rules = [], variants = null }: { rules?: Rule[]; variants?: Variant[] | null },
): Promise<Map<string, number>> {
  const { db } = t.database;
  await db
    .updateTable('urls')
    .set({ rules: rules.length > 0 ? JSON.stringify(rules) : null, variants: variants ? JSON.stringify(variants) : null })
    .where('id', '=', urlId)
    .execute();
  const wanted = new Map<string, { source: 'rule' | 'variant'; url: string }>();
  for (const rule of rules) wanted.set(`rule ${rule.url}`, { source: 'rule', url: rule.url });
  for (const variant of variants ?? []) wanted.set(`variant ${variant.url}`, { source: 'variant', url: variant.url });
  const ids = new Map<string, number>();
  for (const [key, { source, url }] of wanted) {
    const row = await db
      .insertInto('link_destinations')
      .values({ url_id: urlId, source, url, created_at: Date.now() })
      .onConflict((oc) => oc.columns(['url_id', 'source', 'url']).doUpdateSet({ url }))
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.set(key, Number(row.id));
  }
  return ids;
}
