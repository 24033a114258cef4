import { sql } from 'kysely';
import type { Database } from '../../server/db/database';
import type { DialectName } from '../../server/db/dialect';
import { numberSeries } from './number-series';

/** BENCH_STATS_CLICKS: more (issue 36 asks for 10,000,000) or fewer raw clicks. */
export const STATS_CLICKS = Number(process.env.BENCH_STATS_CLICKS ?? 1_000_000);
/** BENCH_STATS_CITIES: how many cities the clicks come from (a link shared far and wide has tens of thousands). */
export const STATS_CITIES = Number(process.env.BENCH_STATS_CITIES ?? 150);
const DAYS = 365;
const DAY_MS = 86_400_000;

/**
 * One link with STATS_CLICKS (1,000,000) raw clicks over the last 365 days (STATS_CITIES cities, 30 countries, three
 * devices, six browsers, five systems, 20 referrers and direct, 2 % bots), and the daily roll-ups
 * the click writer would have kept for them, derived from those rows in SQL (so they agree).
 * Daily unique visitors are not derivable from rows without hashes: two thirds of each day's clicks.
 */
export async function seedStats(db: Database, dialect: DialectName, urlId: number, now = Date.now()) {
  const series = numberSeries(dialect, STATS_CLICKS);
  const step = Math.floor((DAYS * DAY_MS) / STATS_CLICKS);
  const countries = 'ESMXARCOPECLUSBRFRDEITGBPTVEECUYBOPYCRGTHNSVNICUDOPRCAJPCNIN';
  // Parenthesised: SQLite binds || tighter than %.
  const text = (value: unknown) => (dialect === 'sqlite' ? sql`(${value})` : sql`(${value})::text`);
  await sql`
    insert into clicks (url_id, created_at, city, country, device, browser, os, referrer, is_bot)
    select ${urlId}, cast(${now} as bigint) - n * cast(${step} as bigint),
      'Ciudad ' || ${text(sql`(n * 7) % ${sql.lit(STATS_CITIES)}`)},
      substr(${countries}, cast((n % 30) * 2 + 1 as integer), 2),
      case when n % 10 < 6 then 'mobile' when n % 10 < 9 then 'desktop' else 'tablet' end,
      case n % 6 when 0 then 'Chrome' when 1 then 'Mobile Safari' when 2 then 'Firefox' when 3 then 'Edge' when 4 then 'Samsung Internet' else null end,
      case n % 5 when 0 then 'Android' when 1 then 'iOS' when 2 then 'Windows' when 3 then 'Mac OS' else 'Linux' end,
      case when n % 4 = 0 then null else 'sitio' || ${text(sql`n % 20`)} || '.com' end,
      case when n % 50 = 0 then 1 else 0 end
    from (${series}) as seq`.execute(db);

  // Inlined, not bound: PostgreSQL must see the same expression in select and group by.
  const day = sql.raw(`created_at / ${DAY_MS}`);
  const dimensions: Array<[string, ReturnType<typeof sql>]> = [
    ['total', sql`''`], // a constant: PostgreSQL refuses it in group by
    ['country', sql`country`],
    ['city', sql`city`],
    ['device', sql`device`],
    ['browser', sql`coalesce(browser, 'Unknown')`],
    ['os', sql`coalesce(os, 'Unknown')`],
    ['referrer', sql`coalesce(referrer, '')`],
  ];
  for (const [dimension, value] of dimensions) {
    await sql`
      insert into click_rollups (url_id, day, dimension, value, clicks)
      select url_id, ${day}, ${dimension}, ${value}, count(*) from clicks
      where url_id = ${urlId} and is_bot = 0 group by url_id, ${day}${dimension === 'total' ? sql`` : sql`, ${value}`}`.execute(db);
  }
  await sql`
    insert into click_rollups (url_id, day, dimension, value, clicks)
    select url_id, ${day}, 'bots', '', count(*) from clicks where url_id = ${urlId} and is_bot = 1 group by url_id, ${day}`.execute(db);
  await sql`
    insert into click_rollups (url_id, day, dimension, value, clicks)
    select url_id, day, 'visitors', '', clicks * 2 / 3 from click_rollups where url_id = ${urlId} and dimension = 'total'`.execute(db);
  await sql`update urls set click_count = (select count(*) from clicks where url_id = ${urlId} and is_bot = 0) where id = ${urlId}`.execute(db);
  await sql`analyze`.execute(db);
}
