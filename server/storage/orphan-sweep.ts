import { type Bucket, buckets } from '@common/constants';
import type { Database } from '../db/database';
import { isSafeKey, type ObjectStorage, PARTIAL_SUFFIX } from './storage';

/** A link being created has its QR written just before its row: younger files are left alone. */
export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;
const BATCH = 500;

/** Which of `keys` a row names: each bucket's column, through its index (migration 0006). */
async function namedByRows(db: Database, bucket: Bucket, keys: string[]): Promise<Set<string>> {
  const rows =
    bucket === buckets.qrs
      ? await db.selectFrom('urls').select('qr as key').where('qr', 'in', keys).execute()
      : bucket === buckets.previews
        ? await db.selectFrom('urls').select('preview_image_key as key').where('preview_image_key', 'in', keys).execute()
        : await db.selectFrom('users').select('profile_image as key').where('profile_image', 'in', keys).execute();
  return new Set(rows.flatMap((row) => (row.key === null ? [] : [row.key])));
}

export interface SweepOptions {
  db: Database;
  storage: ObjectStorage;
  /** Files younger than this are kept whatever they are. */
  minAgeMs?: number;
  now?: number;
  /** Stops the sweep between batches (the server is closing). */
  signal?: AbortSignal;
}

export interface SweepResult {
  /** Complete files no row names. */
  orphans: number;
  /** Leftovers of writes a crash interrupted. */
  partials: number;
}

/**
 * Removes, from the qrs, profile-pictures and previews buckets, files older than an hour that no row
 * names (a crash between writing a file and its row, or before a removal) and the leftovers of
 * interrupted writes. Files are taken in batches of 500, each checked with one indexed query, so
 * memory stays flat however many files there are.
 */
export async function sweepOrphans({ db, storage, minAgeMs = ORPHAN_MIN_AGE_MS, now = Date.now(), signal }: SweepOptions): Promise<SweepResult> {
  const result: SweepResult = { orphans: 0, partials: 0 };
  const cutoff = now - minAgeMs;
  for (const bucket of [buckets.qrs, buckets.profilePictures, buckets.previews]) {
    let batch: string[] = [];
    const sweepBatch = async () => {
      const named = await namedByRows(db, bucket, batch);
      for (const key of batch) {
        if (named.has(key)) continue;
        await storage.remove(bucket, key);
        result.orphans += 1;
      }
      batch = [];
    };
    for await (const object of storage.list(bucket)) {
      signal?.throwIfAborted();
      // A name the server never makes (a file put there by hand): not ours to judge.
      if (object.modifiedAt > cutoff || !isSafeKey(object.key)) continue;
      if (object.key.endsWith(PARTIAL_SUFFIX)) {
        await storage.remove(bucket, object.key);
        result.partials += 1;
        continue;
      }
      batch.push(object.key);
      if (batch.length === BATCH) await sweepBatch();
    }
    if (batch.length > 0) await sweepBatch();
  }
  return result;
}
