import { buckets } from '@common/constants';
import { qrAddressOf } from '@common/links/qr-options';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { ObjectStorage } from '../storage/storage';
import { shortLinkOf } from './link-mapper';
import { qrPng } from './qr';

/** What the stored PNGs encode now (urls.qr_version, migration 0011): the short address with ?qr=1. */
export const CURRENT_QR_VERSION = 2;
const BATCH = 100;

export interface QrRefreshOptions {
  db: Database;
  storage: ObjectStorage;
  config: Pick<Config, 'publicBaseUrl'>;
  /** Stops the refresh between two links (the server is closing); it goes on at the next start. */
  signal?: AbortSignal;
  /** Links read per query. */
  batch?: number;
  /** Every stored QR, not only those made before scans were counted (PUBLIC_BASE_URL changed: `corto qr-refresh`). */
  all?: boolean;
  /** Called after each link's QR is made again, with the count so far. */
  onRemade?: (remade: number) => void;
}

/**
 * The migration's second half, which needs the object store: every stored QR made before scans
 * were counted (qr_version 1, the bare short address) is made again under the same key with
 * ?qr=1, so a new download counts its scans. Printed codes keep working either way: the bare
 * address still redirects, it just is not counted as a scan. Links are taken 100 at a time through
 * an index and marked one by one, so the refresh can stop anywhere and carry on at the next start;
 * each PNG (qrPng, under a millisecond) is followed by the store's write and the row's update, so
 * redirects get their turns in between.
 * Returns how many files were made again.
 */
export async function refreshStoredQrs({ db, storage, config, signal, batch = BATCH, all = false, onRemade }: QrRefreshOptions): Promise<number> {
  let remade = 0;
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('urls')
      // A link on a custom domain is drawn with its domain's address (https://{hostname}/...).
      .leftJoin('domains', 'domains.id', 'urls.domain_id')
      .select(['urls.id', 'urls.short_url', 'urls.custom_url', 'urls.qr', 'domains.hostname as domain'])
      .$if(!all, (query) => query.where('urls.qr_version', '<', CURRENT_QR_VERSION))
      .where('urls.id', '>', after)
      .orderBy('urls.id')
      .limit(batch)
      .execute();
    if (rows.length === 0) return remade;
    for (const row of rows) {
      signal?.throwIfAborted();
      const shortLink = shortLinkOf(config.publicBaseUrl, { shortCode: row.short_url, customUrl: row.custom_url, domain: row.domain });
      await storage.put(buckets.qrs, row.qr, qrPng(qrAddressOf(shortLink)), 'image/png');
      await db.updateTable('urls').set({ qr_version: CURRENT_QR_VERSION }).where('id', '=', row.id).execute();
      remade += 1;
      after = row.id;
      onRemade?.(remade);
    }
  }
}
