import type { Bucket } from '@common/constants';

/** An object as a listing gives it. */
export interface StoredObject {
  key: string;
  /** Last written, in ms since the epoch. */
  modifiedAt: number;
}

/** Where uploaded pictures and generated QR codes live; local folder by default. */
export interface ObjectStorage {
  put(bucket: Bucket, key: string, body: Buffer, contentType: string): Promise<void>;
  /** The address a browser fetches the object from (absolute, or rooted at this server). */
  publicUrl(bucket: Bucket, key: string): string;
  remove(bucket: Bucket, key: string): Promise<void>;
  /**
   * Every object of a bucket, for the orphan sweep; where writes go through a temporary object,
   * the leftovers of interrupted ones too (their keys end in PARTIAL_SUFFIX).
   */
  list(bucket: Bucket): AsyncIterable<StoredObject>;
}

/** How the key of an interrupted write's leftover ends: it is never a stored object's key. */
export const PARTIAL_SUFFIX = '.partial';

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export function isSafeKey(key: string): boolean {
  return SAFE_KEY.test(key) && !key.includes('..');
}

/** Keys are made by the server; refusing anything else keeps a key from escaping its bucket. */
export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) {
    throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
  }
}
