import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openScratchDatabase, testDialects } from '../test/test-app';
import { migrateTo, migrateToLatest } from './migrate';
import { searchText } from './search-text';

describe.each(testDialects)('migration 0015 (trigram indexes) on %s', (dialect) => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema before this migration
  let db: Kysely<any>;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    const scratch = await openScratchDatabase(dialect);
    db = scratch.database.db;
    cleanup = scratch.close;
    await migrateTo(db, '0014-operator');
  });
  afterEach(async () => cleanup());

  /** Ids of the links whose title (searchable copy) or destination holds `term`, read through the index only. */
  const linksFound = async (column: 'title_search' | 'original_url', term: string) => {
    if (dialect === 'sqlite') {
      const { rows } = await sql<{ id: number }>`select rowid as id from urls_search where urls_search match ${`${column} : "${term}"`} order by rowid`.execute(db);
      return rows.map((row) => Number(row.id));
    }
    // Only the index may answer: no scan of the table to fall back on.
    return db.connection().execute(async (connection) => {
      // Nor a walk of another index in id order (a table this small makes that look cheap).
      await sql`set enable_seqscan = off`.execute(connection);
      await sql`set enable_indexscan = off`.execute(connection);
      await sql`set enable_indexonlyscan = off`.execute(connection);
      try {
        const query = sql<{ id: number }>`select id from urls where ${sql.ref(column)} ${sql.raw(column === 'title_search' ? 'like' : 'ilike')} ${`%${term}%`} order by id`;
        const plan = await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(connection);
        expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain(`Bitmap Index Scan on urls_${column}_trgm_idx`);
        return (await query.execute(connection)).rows.map((row) => Number(row.id));
      } finally {
        await sql`reset enable_seqscan`.execute(connection);
        await sql`reset enable_indexscan`.execute(connection);
        await sql`reset enable_indexonlyscan`.execute(connection);
      }
    });
  };
  const usersFound = async (term: string) => {
    if (dialect === 'sqlite') {
      const { rows } = await sql<{ id: number }>`select rowid as id from users_search where users_search match ${`"${term}"`} order by rowid`.execute(db);
      return rows.map((row) => Number(row.id));
    }
    const { rows } = await sql<{ id: number }>`select id from users where email ilike ${`%${term}%`} or name ilike ${`%${term}%`} order by id`.execute(db);
    return rows.map((row) => Number(row.id));
  };

  it('indexes the links and accounts already there, keeps the index in step with later writes', async () => {
    const ana = await db
      .insertInto('users')
      .values({ email: 'ana@ejemplo.com', name: 'Ana Núñez', password_hash: 'x', profile_image: 'p.png', created_at: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const titles = ['Canción del verano', 'ÁRBOL genealógico', ...Array.from({ length: 1500 }, (_, n) => `Enlace número ${n}`)];
    await db
      .insertInto('urls')
      .values(
        titles.map((title, n) => ({
          user_id: ana.id,
          title,
          title_search: searchText(title),
          original_url: `https://Sitio-${n}.example/`,
          short_url: `m${n}`,
          qr: `qr-m${n}.png`,
          created_at: n,
        })),
      )
      .execute();
    const ids = (await db.selectFrom('urls').select('id').orderBy('id').execute()).map((row) => Number(row.id));

    await migrateToLatest(db);
    // As autovacuum would have by now: 0021 rewrote every link (its workspace), and without fresh
    // statistics PostgreSQL's planner misjudges the narrow workspace indexes on a table this small.
    if (dialect === 'postgres') await sql`analyze`.execute(db);
    expect(await linksFound('title_search', 'cancion')).toEqual([ids[0]]);
    expect(await linksFound('title_search', 'arbol genea')).toEqual([ids[1]]);
    expect(await linksFound('title_search', 'numero 1499')).toEqual([ids.at(-1)]);
    expect(await linksFound('title_search', 'enlace')).toHaveLength(1500);
    expect(await linksFound('original_url', 'sitio-1.example')).toEqual([ids[1]]);
    expect(await usersFound('núñez')).toEqual([Number(ana.id)]);
    expect(await usersFound('EJEMPLO.com')).toEqual([Number(ana.id)]);

    // Later writes, through the triggers (SQLite) or the index itself (PostgreSQL).
    await db.updateTable('urls').set({ title: 'Otra cosa', title_search: 'otra cosa' }).where('id', '=', ids[0]).execute();
    await db.deleteFrom('urls').where('id', '=', ids[1]).execute();
    await db.updateTable('users').set({ email: 'ana@otro.org' }).where('id', '=', ana.id).execute();
    expect(await linksFound('title_search', 'cancion')).toEqual([]);
    expect(await linksFound('title_search', 'otra cosa')).toEqual([ids[0]]);
    expect(await linksFound('title_search', 'arbol')).toEqual([]);
    expect(await usersFound('ejemplo')).toEqual([]);
    expect(await usersFound('otro.org')).toEqual([Number(ana.id)]);
    // A removed account takes its links with it (ON DELETE CASCADE, which fires the triggers too).
    const bea = await db
      .insertInto('users')
      .values({ email: 'bea@ejemplo.com', name: 'Bea', password_hash: 'x', profile_image: 'p.png', created_at: 2 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('urls').values({ user_id: bea.id, title: 'Efímero', title_search: 'efimero', original_url: 'https://efimero.example/', short_url: 'efi', qr: 'qr-efi.png', created_at: 3 }).execute();
    expect(await linksFound('title_search', 'efimero')).toHaveLength(1);
    await db.deleteFrom('users').where('id', '=', bea.id).execute();
    expect(await linksFound('title_search', 'efimero')).toEqual([]);
    expect(await usersFound('bea@')).toEqual([]);
    if (dialect === 'sqlite') {
      // The index holds exactly what the rows say (FTS5 compares it with its content tables).
      for (const table of ['urls_search', 'users_search']) {
        await sql`insert into ${sql.table(table)} (${sql.table(table)}, rank) values ('integrity-check', 1)`.execute(db);
      }
    }

    // No way back down from here: 0021-workspaces has none (its rollback is the backup taken before).
  });
});
