import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Started } from '../../bench/lib/processes';
import { migrateToLatest } from '../db/migrate';
import { insertLink } from '../redirect/redirect.test-support';
import { testDialects } from '../test/test-app';
import { redirectLoad } from './redirect-load';
import { type ProcessDatabase, processDatabase, startServer, until, withDatabase } from './server-process';

// Real server processes under a small load, stopped politely (SIGTERM) and brutally (SIGKILL).
// The PostgreSQL outage has a suite of its own (database-outage.test.ts).

const WORKERS = 16;

// The loads below are counted in memory: ask often, and give a loaded machine time.
const patience = { limitMs: 60_000, everyMs: 50 };

describe.each(testDialects)('faults on %s', (dialect) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  async function setUp(links: number) {
    const database = await processDatabase(dialect);
    cleanups.push(() => database.drop());
    // Written before any server holds the folder.
    const rows = await withDatabase(database, async ({ db }) => {
      await migrateToLatest(db);
      const made = [];
      for (let i = 0; i < links; i += 1) made.push(await insertLink(db, { originalUrl: `https://example.com/destino/${i}` }));
      return made;
    });
    return { database, links: rows };
  }

  async function start(database: ProcessDatabase, env: Record<string, string> = {}): Promise<Started> {
    const server = await startServer(database, env);
    cleanups.push(() => server.stop('SIGKILL'));
    return server;
  }

  // One flow, to start as few processes as possible: SIGTERM under load, restart, SIGKILL under
  // load, restart, then count. The first phase visits link 0 only, the second the others.
  it('SIGTERM loses no click; after SIGKILL it restarts, the database opens and every link is still there', async () => {
    const { database, links } = await setUp(20);
    const [first, ...rest] = links;
    const url = (server: Started, code: string) => `http://127.0.0.1:${server.port}/${code}`;

    // 1. SIGTERM with a slow flush: the clicks are still queued when the signal comes, so only the drain saves them.
    const a = await start(database, { CLICK_FLUSH_MS: '2000' });
    const politeLoad = redirectLoad(() => url(a, first!.shortUrl), WORKERS);
    await until(() => politeLoad.tally.redirects >= 300, '300 redirects before SIGTERM', patience);
    expect(await a.stop('SIGTERM')).toBe(0);
    const polite = await politeLoad.stop();

    // 2. Restarted, then SIGKILL under load on the other links.
    const b = await start(database);
    const brutalLoad = redirectLoad(() => url(b, rest[Math.floor(Math.random() * rest.length)]!.shortUrl), WORKERS);
    await until(() => brutalLoad.tally.redirects >= 300, '300 redirects before SIGKILL', patience);
    await b.stop('SIGKILL');
    const brutal = await brutalLoad.stop();

    // 3. It starts again on the same folder or schema, and every link redirects where it should.
    const c = await start(database);
    for (const link of links) {
      const visit = await fetch(url(c, link.shortUrl), { method: 'HEAD', redirect: 'manual' });
      expect(visit.status, link.shortUrl).toBe(302);
      expect(visit.headers.get('location')).toBe(link.originalUrl);
    }
    expect(await c.stop('SIGTERM')).toBe(0);

    const counted = await withDatabase(database, async ({ db }) => {
      const clicks = async (ids: number[]) =>
        Number((await db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).where('url_id', 'in', ids).executeTakeFirstOrThrow()).n);
      return {
        politeRows: await clicks([first!.id]),
        brutalRows: await clicks(rest.map((link) => link.id)),
        stored: (await db.selectFrom('urls').select('short_url').orderBy('id').execute()).map((row) => row.short_url),
        integrity: dialect === 'sqlite' ? (await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db)).rows[0]?.integrity_check : 'ok',
      };
    });
    console.log(
      `faults on ${dialect}: SIGTERM after ${polite.redirects} redirects -> ${counted.politeRows} click rows; ` +
        `SIGKILL after ${brutal.redirects} redirects -> ${counted.brutalRows} kept, ${Math.max(0, brutal.redirects - counted.brutalRows)} lost by the crash (by design: what was still queued)`,
    );
    for (const tally of [polite, brutal]) expect(tally.statuses[500] ?? 0).toBe(0);
    expect(counted.politeRows).toBeGreaterThanOrEqual(polite.redirects);
    // A few more at most: answered just as the client was cut off, so it never counted them.
    expect(counted.politeRows).toBeLessThanOrEqual(polite.redirects + WORKERS);
    expect(counted.integrity).toBe('ok');
    expect(counted.stored).toEqual(links.map((link) => link.shortUrl));
    // A crash may lose the clicks still queued, never invent any.
    expect(counted.brutalRows).toBeLessThanOrEqual(brutal.redirects + WORKERS);
  }, 180_000);
});
