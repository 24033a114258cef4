import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Started } from '../../bench/lib/processes';
import { migrateToLatest } from '../db/migrate';
import { insertLink } from '../redirect/redirect.test-support';
import { redirectLoad } from '../reliability/redirect-load';
import { processDatabase, startServer, until, withDatabase } from '../reliability/server-process';
import { testDialects } from '../test/test-app';
import { type Receiver, startReceiver } from './webhooks.test-support';

// A real server process killed (SIGKILL) under load while its webhook's receiver is slower than
// the clicks: once started again, every click the database recorded is delivered, because its
// event was written in the same transaction, and the rows the dead process had claimed are sent
// once its lease ends.

const patience = { limitMs: 60_000, everyMs: 50 };

describe.each(testDialects)('webhooks across a crash on %s', (dialect) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  it('delivers every recorded click after a SIGKILL', async () => {
    const receiver: Receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    receiver.delayMs = 15;
    receiver.secret = `whsec_${randomBytes(32).toString('base64')}`;
    const database = await processDatabase(dialect);
    cleanups.push(() => database.drop());
    const link = await withDatabase(database, async ({ db }) => {
      await migrateToLatest(db);
      const made = await insertLink(db, { originalUrl: 'https://example.com/caida' });
      const { workspace_id } = await db.selectFrom('urls').select('workspace_id').where('id', '=', made.id).executeTakeFirstOrThrow();
      await db
        .insertInto('webhooks')
        .values({ workspace_id, url: receiver.url, secret: receiver.secret!, events: '["link.clicked"]', filtered: 0, enabled: 1, disabled_reason: null, created_at: Date.now() })
        .execute();
      return made;
    });
    const env = { ALLOW_PRIVATE_DESTINATIONS: 'true', WEBHOOK_LEASE_SECONDS: '3' };
    const start = async () => {
      const server: Started = await startServer(database, env);
      cleanups.push(() => server.stop('SIGKILL'));
      return server;
    };

    const first = await start();
    const load = redirectLoad(() => `http://127.0.0.1:${first.port}/${link.shortUrl}`, 16);
    await until(() => load.tally.redirects >= 400 && receiver.received.length > 0, '400 redirects and some deliveries', patience);
    await first.stop('SIGKILL');
    await load.stop();
    const deliveredBefore = new Set(receiver.received.map((r) => r.id)).size;

    receiver.delayMs = 0;
    const second = await start();
    // Until the outbox is empty: no click batch left to expand, every delivery written as sent
    // (the dead process's claimed rows once its lease ends). Looked at in the database, not by a
    // quiet spell at the receiver: a busy server pauses its dispatcher for seconds at a time.
    const outboxLeft = () =>
      withDatabase(database, async ({ db }) => {
        const batches = await db.selectFrom('webhook_click_batches').select('id').limit(1).execute();
        const unsent = await db.selectFrom('webhook_deliveries').select('id').where('status', '!=', 'delivered').limit(1).execute();
        return batches.length + unsent.length;
      }, { whileServing: true });
    await until(async () => (await outboxLeft()) === 0, 'the outbox emptied', { ...patience, everyMs: 500 });
    expect(await second.stop('SIGTERM')).toBe(0);

    const stored = await withDatabase(database, async ({ db }) => ({
      clicks: (await db.selectFrom('clicks').select('id').where('url_id', '=', link.id).execute()).length,
      deliveries: await db.selectFrom('webhook_deliveries').select(['id', 'status']).execute(),
      batches: await db.selectFrom('webhook_click_batches').select('id').execute(),
    }));
    const ids = new Set(receiver.received.map((r) => r.id));
    expect(deliveredBefore).toBeLessThan(stored.clicks); // the kill came with events still in the outbox
    expect(stored.clicks).toBeGreaterThan(0);
    // One event per recorded click, each received (a repeat only for one cut mid-send), none left
    // in the outbox (whose delivered rows are pruned to the last 100).
    expect(stored.deliveries.filter((row) => row.status !== 'delivered')).toEqual([]);
    expect(stored.batches).toEqual([]);
    expect(ids.size).toBe(stored.clicks);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
  }, 120_000);
});
