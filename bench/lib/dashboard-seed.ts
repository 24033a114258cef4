import { sql } from 'kysely';
import type { Database } from '../../server/db/database';
import type { DialectName } from '../../server/db/dialect';
import { numberSeries } from './number-series';
import { withTitleSearch } from '../../server/links/links.queries';
import { personalWorkspaceIdOf } from '../../server/workspaces/personal-workspace';

/**
 * BENCH_DASHBOARD_LINKS: the team's links (and the other user's), 100,000 unless set; a divisor of
 * CLICKS (1,000,000 for issue 36's account with a million links), so every link gets as many clicks.
 */
export const LINKS_PER_USER = Number(process.env.BENCH_DASHBOARD_LINKS ?? 100_000);
export const CLICKS = 1_000_000;
/** The team the links belong to: the user (owner) and 19 others, who made the links in turn. */
export const TEAM_SLUG = 'equipo-bench';
export const TEAM_MEMBERS = 20;

// Titles from a small vocabulary, so terms of every frequency exist: each word below is in about
// one title in twenty; 'Canción' is in one in 400, 'Aniversario' in one in 5,000; 'zapatería' in none.
const WORDS = [
  'Guía', 'receta', 'viaje', 'Música', 'fútbol', 'noticias', 'oferta', 'informe', 'proyecto', 'reunión',
  'vídeo', 'foto', 'evento', 'curso', 'libro', 'película', 'blog', 'tienda', 'documento', 'presentación',
  'campaña', 'boletín', 'entrevista', 'artículo', 'podcast', 'tutorial', 'encuesta', 'árbol', 'jardín', 'café',
  'montaña', 'playa', 'ciudad', 'mercado', 'empresa', 'lección', 'análisis', 'diseño', 'código', 'búsqueda',
];
export const SEARCH_TERMS = { common: 'guia', accented: 'cancion', rare: 'aniversario', miss: 'zapatería' };

// 50 tags, two on each link (one when both draws agree): each tag is on about 4,000 links.
export const TAG_COUNT = 50;
export const tagName = (i: number) => `Etiqueta-${String(i).padStart(2, '0')}`;
/** The tags the bench filters by: a common one (any of the 50 would do) and one on a link in 1,000. */
export const BENCH_TAG = tagName(7);
export const RARE_TAG = 'Rara';

function title(n: number): string {
  // A cheap integer hash: deterministic, spread evenly over the vocabulary.
  let x = Math.imul(n ^ (n >>> 15), 2246822507) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 3266489909) >>> 0;
  const words = [WORDS[x % WORDS.length], WORDS[(x >>> 8) % WORDS.length]];
  if (n % 400 === 0) words.push('Canción');
  if (n % 5000 === 0) words.push('Aniversario');
  return `${words.join(' ')} ${n}`;
}

/**
 * Seeds `userId` with LINKS_PER_USER links (titles made in JS and written through the server's row
 * builder, so their searchable copy is the server's) and 1,000,000 raw clicks spread evenly over
 * them (10 each, click_count kept to match, as the click writer would), plus as many links of
 * another user, so the queries have to pick one user's rows out of the table.
 *
 * The links belong to a team workspace (TEAM_SLUG) of TEAM_MEMBERS members, the user its
 * owner, each member the creator of one link in TEAM_MEMBERS; the other user's are in their
 * personal workspace. Returns the team's members' ids (the user first).
 */
export async function seedDashboard(db: Database, dialect: DialectName, userId: number, otherUserId: number) {
  const start = Date.UTC(2025, 0, 1);
  const clicksPerLink = CLICKS / LINKS_PER_USER;
  const workspaceId = await seedTeam(db, userId, start);
  const members = (await db.selectFrom('workspace_members').select('user_id').where('workspace_id', '=', workspaceId).orderBy('joined_at').orderBy('user_id').execute()).map((row) => Number(row.user_id));
  const workspaces = new Map([[userId, workspaceId], [otherUserId, await personalWorkspaceIdOf(db, otherUserId)]]);
  for (const [owner, prefix] of [[userId, 'a'], [otherUserId, 'b']] as const) {
    for (let from = 1; from <= LINKS_PER_USER; from += 1000) {
      const rows = [];
      for (let n = from; n < from + 1000 && n <= LINKS_PER_USER; n++) {
        const code = `${prefix}${String(n).padStart(6, '0')}`;
        rows.push(
          withTitleSearch({
            workspace_id: workspaces.get(owner)!,
            user_id: owner === userId ? members[n % members.length]! : owner,
            title: title(n),
            original_url: `https://example.com/articulo/${n}`,
            custom_url: null,
            short_url: code,
            qr: `qr-${code}.png`,
            created_at: start + n * 60_000,
            // 0 to 2c, c on average: the clicks sort has many ties to break, and the counts still
            // add up to CLICKS exactly (100,000 links: 4,761 full cycles of 210, then 1 to 19).
            click_count: owner === userId ? n % (2 * clicksPerLink + 1) : 0,
          }),
        );
      }
      await db.insertInto('urls').values(rows).execute();
    }
  }

  const firstId = (
    await db.selectFrom('urls').select((eb) => eb.fn.min<number>('id').as('id')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow()
  ).id;
  const series = numberSeries(dialect, CLICKS);
  // Link ids of one user are consecutive here, so n % LINKS_PER_USER walks all of them.
  await sql`
    insert into clicks (url_id, created_at, city, country, device)
    select ${Number(firstId)} + (n % ${LINKS_PER_USER}), cast(${start} as bigint) + n * 1000, 'Madrid', 'ES',
           case when n % 3 = 0 then 'mobile' else 'desktop' end
    from (${series}) as seq`.execute(db);
  await db
    .insertInto('tags')
    .values(Array.from({ length: TAG_COUNT }, (_, i) => ({ workspace_id: workspaceId, name: tagName(i), name_key: tagName(i).toLowerCase() })))
    .execute();
  const rare = await db.insertInto('tags').values({ workspace_id: workspaceId, name: RARE_TAG, name_key: RARE_TAG.toLowerCase() }).returning('id').executeTakeFirstOrThrow();
  await sql`insert into link_tags (tag_id, url_id) select ${Number(rare.id)}, id from urls where workspace_id = ${workspaceId} and id % 1000 = 3`.execute(db);
  const firstTag = Number(
    (await db.selectFrom('tags').select((eb) => eb.fn.min<number>('id').as('id')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow()).id,
  );
  for (const draw of [sql`u.id % ${TAG_COUNT}`, sql`(u.id / ${TAG_COUNT}) % ${TAG_COUNT}`]) {
    await sql`insert into link_tags (tag_id, url_id)
      select ${firstTag} + ${draw}, u.id from urls u where u.workspace_id = ${workspaceId}
      on conflict do nothing`.execute(db);
  }
  // PostgreSQL: as autovacuum would have by now (statistics, and the visibility map that lets a
  // search read the index alone).
  await sql`${sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze')}`.execute(db);
  return members;
}

/** The team workspace: the user its owner (joined first), TEAM_MEMBERS - 1 editors made for it. */
async function seedTeam(db: Database, userId: number, now: number): Promise<number> {
  const { id } = await db.insertInto('workspaces').values({ slug: TEAM_SLUG, name: 'Equipo', personal_user_id: null, created_at: now }).returning('id').executeTakeFirstOrThrow();
  const others = await db
    .insertInto('users')
    .values(Array.from({ length: TEAM_MEMBERS - 1 }, (_, i) => ({ email: `miembro-${i}@bench.test`, name: `Miembro ${i}`, name_search: `miembro ${i}`, password_hash: 'x', profile_image: 'p.png', created_at: now })))
    .returning('id')
    .execute();
  await db
    .insertInto('workspace_members')
    .values([
      { workspace_id: id, user_id: userId, role: 'owner' as const, joined_at: now },
      ...others.map((other, i) => ({ workspace_id: id, user_id: Number(other.id), role: 'editor' as const, joined_at: now + 1 + i })),
    ])
    .execute();
  return Number(id);
}
