import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { buckets } from '@common/constants';
import { qrTextOf } from '@common/links/short-address';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { migrateTo, migrateToLatest } from '../db/migrate';
import { createLocalStorage } from '../storage/local-storage';
import { openScratchDatabase, testDialects } from '../test/test-app';
import { decodeQr } from './links.test-support';
import { qrPng } from './qr';
import { refreshStoredQrs } from './qr-refresh';

const publicBaseUrl = 'https://corto.example';

describe.each(testDialects)('migration 0011 and the stored QR refresh on %s', (dialect) => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema before this migration
  let db: Kysely<any>;
  let dataDir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    const scratch = await openScratchDatabase(dialect);
    ({ dataDir } = scratch);
    db = scratch.database.db;
    cleanup = scratch.close;
    await migrateTo(db, '0009-living-links');
  });
  afterEach(async () => cleanup());

  it('remakes every QR stored before scans were counted with ?qr=1, leaves newer ones alone, and stops and resumes', async () => {
    const storage = createLocalStorage(path.join(dataDir, 'storage'));
    const { id: userId } = await db
      .insertInto('users')
      .values({ email: 'ana@example.com', name: 'Ana', password_hash: 'x', profile_image: 'p.png', created_at: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const codes = Array.from({ length: 25 }, (_, n) => `old${n}`);
    for (const [n, code] of codes.entries()) {
      await db
        .insertInto('urls')
        .values({ user_id: userId, title: code, title_search: code, original_url: 'https://example.com/', short_url: code, custom_url: n === 0 ? 'Café' : null, custom_url_key: n === 0 ? 'café' : null, qr: `qr-${code}.png`, created_at: n, updated_at: n })
        .execute();
      // As the server stored them before: the bare address.
      await storage.put(buckets.qrs, `qr-${code}.png`, qrPng(qrTextOf(`${publicBaseUrl}/${n === 0 ? 'Café' : code}`)), 'image/png');
    }
    await migrateToLatest(db);
    const typed = db as unknown as Database;
    // A link made after the migration is version 2 already.
    await db.insertInto('urls').values({ user_id: userId, title: 'nuevo', title_search: 'nuevo', original_url: 'https://example.com/', short_url: 'nuevo1', qr: 'qr-nuevo1.png', created_at: 1000 }).execute();

    const stop = new AbortController();
    let puts = 0;
    const counting = { ...storage, put: async (...args: Parameters<typeof storage.put>) => ((puts += 1), puts === 12 && stop.abort(), storage.put(...args)) };
    await expect(refreshStoredQrs({ db: typed, storage: counting, config: { publicBaseUrl }, signal: stop.signal, batch: 10 })).rejects.toThrow();
    const left = await db.selectFrom('urls').select((eb) => eb.fn.countAll().as('n')).where('qr_version', '<', 2).executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(25 - 12);

    expect(await refreshStoredQrs({ db: typed, storage, config: { publicBaseUrl }, batch: 10 })).toBe(13);
    expect(await refreshStoredQrs({ db: typed, storage, config: { publicBaseUrl } })).toBe(0);
    const file = (code: string) => readFile(path.join(dataDir, 'storage', buckets.qrs, `qr-${code}.png`));
    expect(await decodeQr(await file('old0'))).toBe(`${publicBaseUrl}/Caf%C3%A9?qr=1`);
    expect(await decodeQr(await file('old24'))).toBe(`${publicBaseUrl}/old24?qr=1`);
    const scans = await db.selectFrom('urls').select(['scan_count', 'forward_query']).where('short_url', '=', 'old1').executeTakeFirstOrThrow();
    expect([Number(scans.scan_count), Number(scans.forward_query)]).toEqual([0, 0]);
    // No way back down from here: 0021-workspaces has none (its rollback is the backup).
  });
});
