import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Started } from '../../bench/lib/processes';
import { migrateToLatest } from '../db/migrate';
import { insertLink } from '../redirect/redirect.test-support';
import { testDialects } from '../test/test-app';
import { redirectLoad } from './redirect-load';
import { type ProcessDatabase, processDatabase, startServer, withDatabase } from './server-process';

// Real server processes under a small load, stopped politely (SIGTERM) and brutally (SIGKILL).
// The PostgreSQL outage has a suite of its own (database-outage.test.ts).

const WORKERS = 16;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (bounded) until `done` holds. */
async function until(done: () => boolean | Promise<boolean>, what: string, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await sleep(50);
  }
}

async function clickRows(database: ProcessDatabase, urlId: number): Promise<number> {
  return withDatabase(database, async ({ db }) => {
    const row = await db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).where('url_id', '=', urlId).executeTakeFirstOrThrow();
    return Number(row.n);
  });
}

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

  it('SIGTERM under load: every redirect that answered 302 has its click row after a restart', async () => {
    const { database, links } = await setUp(1);
    const link = links[0]!;
    // A slow flush: the clicks are still queued when the signal comes, so only the drain saves them.
    const server = await start(database, { CLICK_FLUSH_MS: '2000' });
    const load = redirectLoad(() => `http://127.0.0.1:${server.port}/${link.shortUrl}`, WORKERS);
    await until(() => load.tally.redirects >= 400, '400 redirects');
    const exitCode = await server.stop('SIGTERM');
    const tally = await load.stop();
    expect(exitCode).toBe(0);

    const again = await start(database);
    const visit = await fetch(`http://127.0.0.1:${again.port}/${link.shortUrl}`, { method: 'HEAD', redirect: 'manual' });
    expect(visit.status).toBe(302);
    expect(await again.stop('SIGTERM')).toBe(0);

    const rows = await clickRows(database, link.id);
    console.log(`SIGTERM on ${dialect}: ${tally.redirects} redirects answered 302, ${rows} click rows after restart`, tally.statuses);
    expect(tally.statuses[500] ?? 0).toBe(0);
    expect(rows).toBeGreaterThanOrEqual(tally.redirects);
    // A few more at most: answered just as the client was cut off, so it never counted them.
    expect(rows).toBeLessThanOrEqual(tally.redirects + WORKERS);
  });

  it('SIGKILL under load: it restarts, the database opens, and every link is still there', async () => {
    const { database, links } = await setUp(20);
    const server = await start(database);
    const load = redirectLoad(() => `http://127.0.0.1:${server.port}/${links[Math.floor(Math.random() * links.length)]!.shortUrl}`, WORKERS);
    await until(() => load.tally.redirects >= 400, '400 redirects');
    await server.stop('SIGKILL');
    const tally = await load.stop();

    const again = await start(database);
    for (const link of links) {
      const visit = await fetch(`http://127.0.0.1:${again.port}/${link.shortUrl}`, { method: 'HEAD', redirect: 'manual' });
      expect(visit.status, link.shortUrl).toBe(302);
      expect(visit.headers.get('location')).toBe(link.originalUrl);
    }
    expect(await again.stop('SIGTERM')).toBe(0);

    const { stored, rows, integrity } = await withDatabase(database, async ({ db }) => ({
      stored: (await db.selectFrom('urls').select(['id', 'short_url', 'original_url']).orderBy('id').execute()).map((row) => row.short_url),
      rows: Number((await db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
      integrity: dialect === 'sqlite' ? (await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db)).rows[0]?.integrity_check : 'ok',
    }));
    console.log(
      `SIGKILL on ${dialect}: ${tally.redirects} redirects answered 302, ${rows} click rows kept, ${Math.max(0, tally.redirects - rows)} lost by the crash (by design: the last flush interval)`,
    );
    expect(integrity).toBe('ok');
    expect(stored).toEqual(links.map((link) => link.shortUrl));
    // A crash may lose the clicks still queued, never invent any.
    expect(rows).toBeLessThanOrEqual(tally.redirects + WORKERS);
  });
});
