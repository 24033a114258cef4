import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '@common/auth/auth-schemas';
import type { Link } from '@common/links/link-schemas';
import { insertLink as insertUrlRow } from '../links/links.queries';
import { createLinkAs } from '../links/links.test-support';
import { insertLink } from '../redirect/redirect.test-support';
import { createTestApp, type TestApp, testDialects, createTwoInstancesOnRedis } from '../test/test-app';
import { tablesOfThisDatabase } from '../test/database-tables';
import { registerUser, sameOrigin } from '../test/test-users';
import { deleteAccount } from './delete-account';
import { personalWorkspaceIdOf } from '../workspaces/personal-workspace';
import { redisReachable, testRedisUrl as redisUrl } from '../test/redis';

const desktop = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** Rows of every table that name the user (user_id, or id in users) or one of the links (url_id). */
async function rowsOf(t: TestApp, userId: number, linkIds: number[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { name, columns } of await tablesOfThisDatabase(t.database.db)) {
    const conditions = [];
    if (name === 'users') conditions.push(sql`id = ${userId}`);
    if (columns.includes('user_id')) conditions.push(sql`user_id = ${userId}`);
    if (columns.includes('url_id') && linkIds.length > 0) conditions.push(sql`url_id in (${sql.join(linkIds)})`);
    if (conditions.length === 0) continue;
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(name)} where ${sql.join(conditions, sql` or `)}`.execute(
      t.database.db,
    );
    counts[name] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

async function storedFiles(t: TestApp, bucket: string): Promise<string[]> {
  const folder = path.join(t.config.dataDir, 'storage', bucket);
  return existsSync(folder) ? readdir(folder) : [];
}

describe.each(testDialects)('deleteAccount on %s', (dialect) => {
  let t: TestApp;
  let leaving: { user: User; cookie: string };
  let staying: { user: User; cookie: string };
  let links: Link[];
  let kept: Link;

  beforeEach(async () => {
    t = await createTestApp(dialect);
    leaving = await registerUser(t.app);
    staying = await registerUser(t.app);
    links = [
      await createLinkAs(t.app, leaving.cookie, { customUrl: `se-va-${Date.now().toString(36)}` }),
      await createLinkAs(t.app, leaving.cookie),
    ];
    kept = await createLinkAs(t.app, staying.cookie, { customUrl: `se-queda-${Date.now().toString(36)}` });
    // A former alias, clicks, roll-ups and visitors, for both users.
    const moved = await t.app.inject({
      method: 'PATCH',
      url: `/api/links/${links[0]!.id}`,
      headers: { cookie: leaving.cookie, ...sameOrigin },
      payload: { customUrl: `nuevo-${Date.now().toString(36)}` },
    });
    expect(moved.statusCode).toBe(200);
    links[0] = moved.json().link as Link;
    for (const link of [...links, kept]) {
      const visit = await t.app.inject({ method: 'GET', url: `/${link.shortCode}`, headers: { 'user-agent': desktop } });
      expect(visit.statusCode).toBe(302);
    }
    await t.app.appContext.clickWriter.flush();
  });
  afterEach(async () => t.close());

  it('leaves no row and no file of the user, and the other user untouched', async () => {
    const ids = links.map((link) => link.id);
    const before = await rowsOf(t, leaving.user.id, ids);
    // The fixture really put rows everywhere a user's data lives.
    for (const table of ['users', 'sessions', 'urls', 'clicks', 'click_rollups', 'click_visitors', 'user_link_totals', 'former_aliases']) {
      expect(before[table], table).toBeGreaterThan(0);
    }
    const othersBefore = await rowsOf(t, staying.user.id, [kept.id]);
    const picture = path.basename(new URL(leaving.user.profileImage, 'http://x').pathname);
    expect(await storedFiles(t, 'profile-pictures')).toContain(picture);

    await deleteAccount(t.app.appContext, leaving.user.id);

    const after = await rowsOf(t, leaving.user.id, ids);
    expect(Object.values(after).every((n) => n === 0), JSON.stringify(after)).toBe(true);
    expect(await rowsOf(t, staying.user.id, [kept.id])).toEqual(othersBefore);
    expect(await storedFiles(t, 'profile-pictures')).not.toContain(picture);
    const qrs = await storedFiles(t, 'qrs');
    for (const link of links) expect(qrs).not.toContain(`qr-${link.shortCode}.png`);
    expect(qrs).toContain(`qr-${kept.shortCode}.png`);
  });

  it('makes every address of the links answer 404 at once, though they were cached', async () => {
    const addresses = [links[0]!.shortCode, links[0]!.customUrl!, ...links[0]!.previousAddresses, links[1]!.shortCode];
    for (const address of addresses) {
      expect((await t.app.inject({ method: 'GET', url: `/${address}` })).statusCode, address).toBe(302);
    }
    await deleteAccount(t.app.appContext, leaving.user.id);
    for (const address of addresses) {
      expect((await t.app.inject({ method: 'GET', url: `/${address}` })).statusCode, address).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url: `/${kept.shortCode}` })).statusCode).toBe(302);
  });

  it("ends the user's sessions, and does nothing for an id that names no user", async () => {
    await deleteAccount(t.app.appContext, leaving.user.id);
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: leaving.cookie } });
    expect(session.json()).toEqual({ user: null });
    await expect(deleteAccount(t.app.appContext, leaving.user.id)).resolves.toBeUndefined();
    const other = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: staying.cookie } });
    expect(other.json().user.id).toBe(staying.user.id);
  });
});

// Two instances sharing Redis: the account deleted through one, its addresses stop on the other.
const hasRedis = await redisReachable(redisUrl);
if (!hasRedis) console.warn(`delete-account.test: no Redis at ${redisUrl}; cross-instance test skipped`);

describe.runIf(hasRedis).each(testDialects)('deleteAccount across instances on %s', (dialect) => {
  let one: TestApp;
  let two: TestApp;
  beforeEach(async () => {
    [one, two] = await createTwoInstancesOnRedis(dialect, redisUrl);
  });
  afterEach(async () => {
    await one?.close();
    await two?.close();
  });

  it("drops the user's addresses from the other instance's cache at once", async () => {
    // Each test app has its own database; the same codes in both stand for one shared account.
    const code = `d${Date.now().toString(36).slice(-5)}`;
    const alias = `Cuenta-${code}`;
    const leaving = await registerUser(one.app);
    const workspaceId = await personalWorkspaceIdOf(one.database.db, leaving.user.id);
    await insertUrlRow(one.database.db, { workspace_id: workspaceId, user_id: leaving.user.id, title: 'x', original_url: 'https://example.com/', custom_url: alias, short_url: code, qr: `qr-${code}.png`, created_at: Date.now() });
    const onTwo = await insertLink(two.database.db, { shortUrl: code, customUrl: alias });
    expect((await two.app.inject({ method: 'GET', url: `/${code}` })).statusCode).toBe(302);
    expect(two.app.appContext.linkCache.peek(code)).toBeDefined();

    // The row goes from the second database as the shared one would; only the first instance deletes.
    await two.database.db.deleteFrom('urls').where('id', '=', onTwo.id).execute();
    await deleteAccount(one.app.appContext, leaving.user.id);

    await expect.poll(() => two.app.appContext.linkCache.peek(code), { timeout: 2000 }).toBeUndefined();
    expect(two.app.appContext.linkCache.peek(alias.toLowerCase())).toBeUndefined();
    expect((await two.app.inject({ method: 'GET', url: `/${alias}` })).statusCode).toBe(404);
  });
});
