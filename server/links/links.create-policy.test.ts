import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { linkMessages as m } from '@common/links/link-messages';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { createLinkAs, postLink } from './links.test-support';
import { withTitleSearch } from './links.queries';
import { personalWorkspaceIdOf } from '../workspaces/personal-workspace';

const BASE = 'https://corto.example';
const HOUR_MS = 60 * 60 * 1000;

describe.each(testDialects)('what POST /api/links refuses on %s', (dialect) => {
  let t: TestApp;
  afterEach(async () => t?.close());

  const storedQrs = async () => readdir(path.join(t.config.dataDir, 'storage', 'qrs')).catch(() => [] as string[]);
  const linkCount = async () => Number((await t.database.db.selectFrom('urls').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  describe('destinations', () => {
    it('refuses loopback, private and link-local destinations under longUrl, storing nothing', async () => {
      t = await createTestApp(dialect, { PUBLIC_BASE_URL: BASE });
      const { cookie } = await registerUser(t.app);
      for (const longUrl of ['http://127.0.0.1/', 'http://localhost:8080/admin', 'http://192.168.1.1/', 'http://[::1]/', 'http://169.254.169.254/latest', 'http://[::ffff:10.0.0.1]/']) {
        const response = await postLink(t.app, cookie, { title: 'Interna', longUrl });
        expect(response.statusCode, longUrl).toBe(400);
        expect(response.json().error).toMatchObject({ code: 'validation', fields: { longUrl: [m.longUrlPrivate] } });
      }
      expect(await storedQrs()).toEqual([]);
      expect(await linkCount()).toBe(0);
    });

    it("refuses this instance's own addresses, so no short link leads to another (or to itself)", async () => {
      t = await createTestApp(dialect, { PUBLIC_BASE_URL: BASE });
      const { cookie } = await registerUser(t.app);
      const first = await createLinkAs(t.app, cookie);
      for (const longUrl of [first.shortLink, `${BASE}/`, `http://corto.example:8080/${first.shortCode}`]) {
        const response = await postLink(t.app, cookie, { title: 'Bucle', longUrl });
        expect(response.statusCode, longUrl).toBe(400);
        expect(response.json().error.fields).toEqual({ longUrl: [m.longUrlThisInstance] });
      }
      expect(await linkCount()).toBe(1);
    });

    it('allows them with ALLOW_PRIVATE_DESTINATIONS=true (an intranet)', async () => {
      t = await createTestApp(dialect, { PUBLIC_BASE_URL: BASE, ALLOW_PRIVATE_DESTINATIONS: 'true' });
      const { cookie } = await registerUser(t.app);
      for (const longUrl of ['http://192.168.1.1/', 'http://wiki.internal/', `${BASE}/abc123`]) {
        expect((await createLinkAs(t.app, cookie, { longUrl })).originalUrl).toBe(longUrl);
      }
    });
  });

  describe('LINKS_PER_HOUR', () => {
    it('answers the link over the hourly limit with a Spanish 429 and Retry-After, storing nothing; other accounts go on', async () => {
      t = await createTestApp(dialect, { LINKS_PER_HOUR: '3' });
      const { cookie } = await registerUser(t.app);
      for (let i = 0; i < 3; i += 1) await createLinkAs(t.app, cookie);
      const refused = await postLink(t.app, cookie, { title: 'Una más', longUrl: 'https://example.com/mas' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: { code: 'rate_limited', message: m.tooManyLinks } });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(3500);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(await linkCount()).toBe(3);
      expect(await storedQrs()).toHaveLength(3);

      const other = await registerUser(t.app);
      await createLinkAs(t.app, other.cookie);
    });

    it('counts from the database over the last hour: rows made elsewhere count, older ones do not', async () => {
      t = await createTestApp(dialect, { LINKS_PER_HOUR: '3' });
      const { cookie, user } = await registerUser(t.app);
      const workspaceId = await personalWorkspaceIdOf(t.database.db, user.id);
      const insert = (createdAt: number, code: string) =>
        t.database.db
          .insertInto('urls')
          .values(withTitleSearch({ workspace_id: workspaceId, user_id: user.id, title: 'x', original_url: 'https://example.com/', custom_url: null, short_url: code, qr: `qr-${code}.png`, created_at: createdAt }))
          .execute();
      // As if made by another instance, or before a restart: 50 minutes ago, twice.
      await insert(Date.now() - 50 * 60_000, 'otra01');
      await insert(Date.now() - 50 * 60_000, 'otra02');
      await createLinkAs(t.app, cookie);
      const refused = await postLink(t.app, cookie, { title: 'Una más', longUrl: 'https://example.com/mas' });
      expect(refused.statusCode).toBe(429);
      // The first place frees up when the oldest of the hour's three is an hour old: in about 10 minutes.
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(9 * 60);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(10 * 60);

      await t.database.db.updateTable('urls').set({ created_at: Date.now() - HOUR_MS - 1000 }).where('short_url', 'in', ['otra01', 'otra02']).execute();
      await createLinkAs(t.app, cookie);
    });

    it('lets through exactly the limit when many creations arrive at once', async () => {
      t = await createTestApp(dialect, { LINKS_PER_HOUR: '5' });
      const { cookie } = await registerUser(t.app);
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => postLink(t.app, cookie, { title: `A la vez ${i}`, longUrl: `https://example.com/${i}` }).then((r) => r.statusCode)),
      );
      expect(statuses.filter((status) => status === 201)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(15);
      expect(await linkCount()).toBe(5);
    });

    it('has no limit with LINKS_PER_HOUR=0', async () => {
      t = await createTestApp(dialect, { LINKS_PER_HOUR: '0' });
      const { cookie, user } = await registerUser(t.app);
      const workspaceId = await personalWorkspaceIdOf(t.database.db, user.id);
      await t.database.db
        .insertInto('urls')
        .values(Array.from({ length: 300 }, (_, i) => withTitleSearch({ workspace_id: workspaceId, user_id: user.id, title: 'x', original_url: 'https://example.com/', custom_url: null, short_url: `mucho${i}`, qr: `qr-mucho${i}.png`, created_at: Date.now() })))
        .execute();
      await createLinkAs(t.app, cookie);
    });

    it('defaults to 200 an hour', async () => {
      t = await createTestApp(dialect);
      const { cookie, user } = await registerUser(t.app);
      const workspaceId = await personalWorkspaceIdOf(t.database.db, user.id);
      await t.database.db
        .insertInto('urls')
        .values(Array.from({ length: 199 }, (_, i) => withTitleSearch({ workspace_id: workspaceId, user_id: user.id, title: 'x', original_url: 'https://example.com/', custom_url: null, short_url: `casi${i}`, qr: `qr-casi${i}.png`, created_at: Date.now() })))
        .execute();
      await createLinkAs(t.app, cookie);
      expect((await postLink(t.app, cookie, { title: 'La 201', longUrl: 'https://example.com/201' })).statusCode).toBe(429);
    });
  });
});
