import { sql } from 'kysely';
import type { Database } from '../../server/db/database';
import type { DialectName } from '../../server/db/dialect';

export const LINKS_PER_USER = 10_000;
export const CLICKS = 1_000_000;

/**
 * Seeds `userId` with 10,000 links and 1,000,000 raw clicks spread evenly over them (100 each,
 * click_count kept to match, as the click writer would), plus 10,000 links of another user so
 * the query has to pick one user's rows out of the table. Generated in SQL: seconds, not minutes.
 */
export async function seedDashboard(db: Database, dialect: DialectName, userId: number, otherUserId: number) {
  const start = Date.UTC(2025, 0, 1);
  const clicksPerLink = CLICKS / LINKS_PER_USER;
  const series = (count: number) =>
    dialect === 'sqlite'
      ? sql`with recursive seq(n) as (select 1 union all select n + 1 from seq where n < ${count}) select n from seq`
      : sql`select generate_series(1, ${count}) as n`;

  for (const [owner, prefix] of [[userId, 'a'], [otherUserId, 'b']] as const) {
    const code = dialect === 'sqlite' ? sql`${prefix} || printf('%05d', n)` : sql`${prefix} || lpad(n::text, 5, '0')`;
    await sql`
      insert into urls (user_id, title, original_url, custom_url, short_url, qr, created_at, click_count)
      select ${owner}, 'Link número ' || n, 'https://example.com/articulo/' || n, null, ${code},
             'qr-' || ${code} || '.png', cast(${start} as bigint) + n * 60000, ${owner === userId ? clicksPerLink : 0}
      from (${series(LINKS_PER_USER)}) as seq`.execute(db);
  }

  const firstId = (
    await db.selectFrom('urls').select((eb) => eb.fn.min<number>('id').as('id')).where('user_id', '=', userId).executeTakeFirstOrThrow()
  ).id;
  // Link ids of one user are consecutive here, so n % 10,000 walks all of them.
  await sql`
    insert into clicks (url_id, created_at, city, country, device)
    select ${Number(firstId)} + (n % ${LINKS_PER_USER}), cast(${start} as bigint) + n * 1000, 'Madrid', 'ES',
           case when n % 3 = 0 then 'mobile' else 'desktop' end
    from (${series(CLICKS)}) as seq`.execute(db);
  await sql`analyze`.execute(db);
}
