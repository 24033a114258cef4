import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openScratchDatabase, testDialects } from '../test/test-app';
import { migrateTo, migrateToLatest } from './migrate';

// Migration 0021 on a copy of a round-2 database: every user gets a personal workspace (owner)
// holding all their links (clicks, former aliases, tags intact) and tokens, nothing lost.

describe.each(testDialects)('migration 0021 (workspaces) on a round-2 database on %s', (dialect) => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema before this migration
  let db: Kysely<any>;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    const scratch = await openScratchDatabase(dialect);
    db = scratch.database.db;
    cleanup = scratch.close;
    await migrateTo(db, '0020-report-states');
  });
  afterEach(async () => cleanup());

  it('gives each user a personal workspace holding their links, clicks, former aliases, tags and tokens', async () => {
    // Two namesakes (one slug each), an accented name and one that makes no slug; 'Admin' is a reserved path.
    const names = ['Ana García', 'Ana García', 'Ñu', 'Admin', '!!'];
    const users: number[] = [];
    for (const [n, name] of names.entries()) {
      const { id } = await db
        .insertInto('users')
        .values({ email: `u${n}@corto.test`, name, password_hash: 'x', profile_image: `p${n}.png`, created_at: n + 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      users.push(Number(id));
    }
    const links: Array<{ id: number; user: number; clicks: number }> = [];
    for (const [n, user] of users.entries()) {
      for (let k = 0; k < 3; k += 1) {
        const code = `c${n}x${k}`;
        const clicks = n + k;
        const { id } = await db
          .insertInto('urls')
          .values({
            user_id: user,
            title: `Link ${code}`,
            title_search: `link ${code}`,
            original_url: 'https://example.com/',
            short_url: code,
            custom_url: k === 0 ? `alias-${code}` : null,
            custom_url_key: k === 0 ? `alias-${code}` : null,
            qr: `qr-${code}.png`,
            created_at: 100 + k,
            click_count: clicks,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        links.push({ id: Number(id), user, clicks });
        for (let c = 0; c < clicks; c += 1) {
          await db.insertInto('clicks').values({ url_id: id, created_at: 200 + c, city: 'Madrid', country: 'ES', device: 'mobile' }).execute();
        }
        if (k === 0) await db.insertInto('former_aliases').values({ alias_key: `viejo-${code}`, alias: `Viejo-${code}`, url_id: id, created_at: 50 }).execute();
      }
      const { id: tag } = await db.insertInto('tags').values({ user_id: user, name: `Etiqueta ${n}`, name_key: `etiqueta ${n}` }).returning('id').executeTakeFirstOrThrow();
      await db.insertInto('link_tags').values({ tag_id: tag, url_id: links.at(-1)!.id }).execute();
      await db
        .insertInto('api_tokens')
        .values({ user_id: user, name: `Token ${n}`, scope: 'write', prefix: `ct_${n}`, token_hash: `hash-${n}`, created_at: 1, expires_at: null, last_used_at: null })
        .execute();
    }

    await migrateToLatest(db);

    const workspaces = await db.selectFrom('workspaces').selectAll().orderBy('personal_user_id').execute();
    expect(workspaces.map((w) => Number(w.personal_user_id))).toEqual(users);
    expect(workspaces.map((w) => w.name)).toEqual(names);
    const slugs = workspaces.map((w) => w.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(slugs.slice(0, 3)).toEqual(['ana-garcia', 'ana-garcia-2', 'espacio']);
    expect(slugs).not.toContain('admin');
    const personalOf = new Map(workspaces.map((w) => [Number(w.personal_user_id), Number(w.id)]));

    const members = await db.selectFrom('workspace_members').selectAll().execute();
    expect(members.map((m) => [Number(m.workspace_id), Number(m.user_id), m.role]).sort()).toEqual(
      users.map((user) => [personalOf.get(user), user, 'owner']).sort(),
    );

    const after = await db.selectFrom('urls').select(['id', 'user_id', 'workspace_id', 'click_count']).orderBy('id').execute();
    expect(after.map((row) => ({ id: Number(row.id), user: Number(row.user_id), clicks: Number(row.click_count) }))).toEqual(links);
    for (const row of after) expect(Number(row.workspace_id)).toBe(personalOf.get(Number(row.user_id)));
    const clickRows = await db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(clickRows.n)).toBe(links.reduce((sum, link) => sum + link.clicks, 0));
    expect(await db.selectFrom('former_aliases').select('alias').orderBy('alias').execute()).toHaveLength(users.length);

    const tags = await db.selectFrom('tags').innerJoin('link_tags', 'link_tags.tag_id', 'tags.id').select(['tags.workspace_id', 'tags.name', 'link_tags.url_id']).execute();
    expect(tags).toHaveLength(users.length);
    for (const tag of tags) {
      const owner = links.find((link) => link.id === Number(tag.url_id))!.user;
      expect(Number(tag.workspace_id)).toBe(personalOf.get(owner));
    }
    const tokens = await db.selectFrom('api_tokens').select(['user_id', 'workspace_id', 'token_hash']).execute();
    expect(tokens).toHaveLength(users.length);
    for (const token of tokens) expect(Number(token.workspace_id)).toBe(personalOf.get(Number(token.user_id)));

    const totals = await db.selectFrom('workspace_link_totals').selectAll().execute();
    for (const user of users) {
      const mine = links.filter((link) => link.user === user);
      const total = totals.find((row) => Number(row.workspace_id) === personalOf.get(user))!;
      expect([Number(total.links), Number(total.clicks)]).toEqual([mine.length, mine.reduce((sum, link) => sum + link.clicks, 0)]);
    }
    // The totals keep up afterwards (the triggers): clicks counted later.
    const first = links[0]!;
    await db.updateTable('urls').set({ click_count: first.clicks + 5 }).where('id', '=', first.id).execute();
    const moved = await db.selectFrom('workspace_link_totals').select('clicks').where('workspace_id', '=', personalOf.get(first.user)).executeTakeFirstOrThrow();
    expect(Number(moved.clicks)).toBe(links.filter((l) => l.user === first.user).reduce((sum, l) => sum + l.clicks, 0) + 5);
  });
});
