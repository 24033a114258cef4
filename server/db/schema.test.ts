import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openScratchDatabase, testDialects } from '../test/test-app';
import { tablesOfThisDatabase } from '../test/database-tables';
import { insertLink } from '../links/links.queries';
import { createPersonalWorkspace, personalWorkspaceIdOf } from '../workspaces/personal-workspace';
import type { Database } from './database';
import { isUniqueViolation } from './dialect';
import { migrateToLatest } from './migrate';

describe.each(testDialects)('migrations on %s', (dialect) => {
  let db: Database;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    const scratch = await openScratchDatabase(dialect);
    db = scratch.database.db;
    cleanup = scratch.close;
    await migrateToLatest(db);
  });
  afterEach(async () => cleanup());

  const now = Date.now();
  // As sign-up does: the user and their personal workspace, where their links go.
  const addUser = async (email: string) => {
    const user = await db
      .insertInto('users')
      .values({ email, name: 'Ana', password_hash: 'x', profile_image: 'dp-ana.png', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await createPersonalWorkspace(db, { id: user.id, name: 'Ana' });
    return user;
  };
  const addUrl = async (userId: number, shortUrl: string, customUrl: string | null = null) =>
    insertLink(db, {
      workspace_id: await personalWorkspaceIdOf(db, userId),
      user_id: userId,
      title: 't',
      original_url: 'https://example.com',
      short_url: shortUrl,
      custom_url: customUrl,
      qr: `qr-${shortUrl}.png`,
      created_at: now,
    });

  it('is idempotent: running it again changes nothing', async () => {
    await expect(migrateToLatest(db)).resolves.toEqual({ applied: [], ahead: [] });
  });

  it('returns ids and times as numbers in both dialects', async () => {
    const { id } = await addUser('ana@example.com');
    const user = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(typeof user.id).toBe('number');
    expect(user.created_at).toBe(now);
  });

  it('keeps e-mails unique regardless of case', async () => {
    await addUser('ana@example.com');
    const error = await addUser('ANA@Example.com').catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('keeps short codes unique and custom aliases unique regardless of case', async () => {
    const { id: userId } = await addUser('ana@example.com');
    await addUrl(userId, 'abc123', 'Promo');
    expect(isUniqueViolation(await addUrl(userId, 'abc123').catch((e: unknown) => e))).toBe(true);
    expect(isUniqueViolation(await addUrl(userId, 'zzz999', 'promo').catch((e: unknown) => e))).toBe(true);
    // Many links without an alias are fine.
    await addUrl(userId, 'def456');
    await addUrl(userId, 'ghi789');
  });

  it('keeps aliases unique regardless of case beyond ASCII, whichever database folds them', async () => {
    const { id: userId } = await addUser('ana@example.com');
    await addUrl(userId, 'abc123', 'Ñoquis');
    // SQLite's lower() and PostgreSQL's under a 'C' locale fold ASCII only: the key does not depend on them.
    expect(isUniqueViolation(await addUrl(userId, 'zzz999', 'ñoquis').catch((e: unknown) => e))).toBe(true);
    expect(isUniqueViolation(await addUrl(userId, 'zzz998', 'ÑOQUIS').catch((e: unknown) => e))).toBe(true);
  });

  it('refuses an alias written without its key', async () => {
    const { id: userId } = await addUser('ana@example.com');
    const write = db
      .insertInto('urls')
      .values({ workspace_id: await personalWorkspaceIdOf(db, userId), user_id: userId, title: 't', title_search: 't', original_url: 'https://example.com', short_url: 'abc123', custom_url: 'Promo', qr: 'q.png', created_at: now })
      .execute();
    await expect(write).rejects.toThrow(/check|constraint/i);
  });

  it("deletes a link's clicks and roll-ups with the link, and a user's links with the user", async () => {
    const { id: userId } = await addUser('ana@example.com');
    const { id: urlId } = await addUrl(userId, 'abc123');
    await db
      .insertInto('clicks')
      .values([1, 2, 3].map(() => ({ url_id: urlId, created_at: now, city: 'Madrid', country: 'ES', device: 'mobile' })))
      .execute();
    await db.insertInto('click_rollups').values({ url_id: urlId, day: 1, dimension: 'total', value: '', clicks: 3 }).execute();
    await db.insertInto('click_visitors').values({ url_id: urlId, day: 1, visitor_hash: 'h' }).execute();
    await db.deleteFrom('urls').where('id', '=', urlId).execute();
    expect(await db.selectFrom('clicks').select('id').execute()).toHaveLength(0);
    expect(await db.selectFrom('click_rollups').select('url_id').execute()).toHaveLength(0);
    expect(await db.selectFrom('click_visitors').select('url_id').execute()).toHaveLength(0);

    await addUrl(userId, 'def456');
    await db.deleteFrom('users').where('id', '=', userId).execute();
    expect(await db.selectFrom('urls').select('id').execute()).toHaveLength(0);
  });

  it('stores no IP address anywhere', async () => {
    const tables = await tablesOfThisDatabase(db);
    const columns = tables.flatMap((table) => table.columns.map((column) => `${table.name}.${column}`));
    expect(columns.filter((column) => /(^|[._])ip($|_)|address/i.test(column))).toEqual([]);
    expect(columns).toContain('clicks.is_bot');
  });
});
