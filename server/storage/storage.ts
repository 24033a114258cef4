import type { Bucket } from '@common/constants';

/** Where uploaded pictures and generated QR codes live; local folder by default. */
export interface ObjectStorage {
  put(bucket: Bucket, key: string, body: Buffer, contentType: string): Promise<void>;
  /** The address a browser fetches the object from (absolute, or rooted at this server). */
  publicUrl(bucket: Bucket, key: string): string;
  remove(bucket: Bucket, key: string): Promise<void>;
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** Keys are made by the server; refusing anything else keeps a key from escaping its bucket. */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.includes('..')) {
    throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
  }
}
