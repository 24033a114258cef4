import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Bucket, STORAGE_PATH_PREFIX } from '@common/constants';
import { assertSafeKey, type ObjectStorage } from './storage';

/** Objects as files in {root}/{bucket}/{key}, published by the server under /storage. */
export function createLocalStorage(root: string): ObjectStorage {
  const fileOf = (bucket: Bucket, key: string) => {
    assertSafeKey(key);
    return path.join(root, bucket, key);
  };
  return {
    async put(bucket, key, body) {
      const file = fileOf(bucket, key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const partial = `${file}.${process.pid}.partial`;
      await writeFile(partial, body);
      await rename(partial, file);
    },
    publicUrl(bucket, key) {
      assertSafeKey(key);
      return `${STORAGE_PATH_PREFIX}/${bucket}/${encodeURIComponent(key)}`;
    },
    async remove(bucket, key) {
      await rm(fileOf(bucket, key), { force: true });
    },
  };
}
