import type { Readable } from 'node:stream';
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
  /**
   * The object as a stream, for serving it or copying it elsewhere; undefined when there is none.
   * `ifNoneMatch` (an ETag the client holds): `notModified` instead of a body when it still matches.
   */
  read(bucket: Bucket, key: string, options?: { ifNoneMatch?: string; headOnly?: boolean }): Promise<ReadObject | undefined>;
  /** Throws unless the store can be written to now (the readiness check). */
  check(): Promise<void>;
  /** Lets go of connections (the app is closing). */
  close(): void;
  /** 'local' or 's3', for logs and the readiness answer. */
  readonly kind: 'local' | 's3';
}

/** An object being read: its body streams, it is never held whole in memory. */
export interface ReadObject {
  /** Absent for a HEAD or when the client's copy is current. */
  body?: Readable;
  notModified: boolean;
  contentType: string;
  contentLength?: number;
  etag?: string;
  lastModified?: Date;
}

/**
 * The object store did not answer (down, unreachable, refusing us): the request that needed it is
 * answered 503 in Spanish, and nothing it would have stored half-way is kept.
 */
export class StorageUnavailableError extends Error {
  constructor(operation: string, cause: unknown) {
    super(`Object storage unavailable (${operation})`, { cause });
    this.name = 'StorageUnavailableError';
  }
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
