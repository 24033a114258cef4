// What a backup archive holds and where each entry goes in a data folder; shared by backup and restore.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { type Bucket, buckets } from '@common/constants';
import { isSafeKey, PARTIAL_SUFFIX } from '../storage/storage';

export const MANIFEST = 'corto-backup.json';
export const DATABASE_FILE = 'corto.db';
export const BACKUP_FORMAT = 1;

export interface Manifest {
  format: number;
  createdAt: string;
  files: number;
}

export const allBuckets: Bucket[] = Object.values(buckets);

/** The stored files of a local store rooted at `root`: [bucket, key], leftovers of interrupted writes left out. */
export async function localFiles(root: string): Promise<Array<[Bucket, string]>> {
  const found: Array<[Bucket, string]> = [];
  for (const bucket of allBuckets) {
    const entries = await readdir(path.join(root, bucket), { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    for (const entry of entries) {
      if (entry.isFile() && isSafeKey(entry.name) && !entry.name.endsWith(PARTIAL_SUFFIX)) found.push([bucket, entry.name]);
    }
  }
  return found;
}

/** The path (relative to a data folder) an archive entry restores to, or undefined for a name Corto never writes. */
export function entryTarget(name: string): string | undefined {
  if (name === DATABASE_FILE || name === MANIFEST) return name;
  const [top, bucket, key, ...rest] = name.split('/');
  if (top !== 'storage' || rest.length > 0 || !allBuckets.includes(bucket as Bucket) || !key || !isSafeKey(key)) return undefined;
  return path.join('storage', bucket!, key);
}
