import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, constants, mkdir, open, opendir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { type Bucket, STORAGE_PATH_PREFIX } from '@common/constants';
import { assertSafeKey, type ObjectStorage, PARTIAL_SUFFIX, type StoredObject } from './storage';

/** Writes `body` to `file` and waits until it is on the disk, not only in the page cache. */
async function writeDurably(file: string, body: Buffer): Promise<void> {
  const handle = await open(file, 'wx');
  try {
    await handle.writeFile(body);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a rename in `folder` durable. Windows cannot open a folder to flush it. */
async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * syncFolder shared by the writes that wait for it: a caller's rename is made before it calls, so
 * any sync that starts afterwards covers it. While one runs, later callers share the next one,
 * which starts when it ends: an import storing a thousand QRs pays for a handful of folder syncs
 * instead of one each, and every put still returns only once its rename is on the disk.
 */
export function sharedFolderSync(sync: (folder: string) => Promise<void> = syncFolder): (folder: string) => Promise<void> {
  const folders = new Map<string, { last: Promise<void>; next?: Promise<void> }>();
  return (folder) => {
    let state = folders.get(folder);
    if (!state) folders.set(folder, (state = { last: Promise.resolve() }));
    if (state.next) return state.next;
    const entry = state;
    const next = entry.last
      .catch(() => undefined)
      .then(() => {
        entry.next = undefined; // started: a rename made from now on needs the one after
        return sync(folder);
      });
    entry.next = next;
    entry.last = next;
    return next;
  };
}

// The types the server stores, by the extension it gives them.
const contentTypes: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/**
 * Objects as files in {root}/{bucket}/{key}, published by the server under /storage.
 * A write goes to a temporary file, flushed to disk, then renamed over the key: a reader never
 * sees half a file, and a crash (even a power cut) leaves either the whole file or a `.partial`
 * leftover, which the orphan sweep removes. The row naming a file is written after put returns,
 * so it never names a file that a power cut could lose.
 */
export function createLocalStorage(root: string): ObjectStorage {
  const folderOf = (bucket: Bucket) => path.join(root, bucket);
  const fileOf = (bucket: Bucket, key: string) => {
    assertSafeKey(key);
    return path.join(folderOf(bucket), key);
  };
  const syncFolderShared = sharedFolderSync();
  // Folders made (or found) once: a put then costs no mkdir, unless the folder has gone since.
  const madeFolders = new Set<string>();
  return {
    kind: 'local',
    async put(bucket, key, body) {
      const file = fileOf(bucket, key);
      const folder = path.dirname(file);
      const partial = `${file}.${randomBytes(6).toString('hex')}${PARTIAL_SUFFIX}`;
      try {
        if (!madeFolders.has(folder)) await mkdir(folder, { recursive: true });
        madeFolders.add(folder);
        await writeDurably(partial, body).catch(async (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
          await mkdir(folder, { recursive: true });
          await writeDurably(partial, body);
        });
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true }).catch(() => undefined);
        throw error;
      }
      await syncFolderShared(folder);
    },
    publicUrl(bucket, key) {
      assertSafeKey(key);
      return `${STORAGE_PATH_PREFIX}/${bucket}/${encodeURIComponent(key)}`;
    },
    async remove(bucket, key) {
      await rm(fileOf(bucket, key), { force: true });
    },
    async *list(bucket): AsyncIterable<StoredObject> {
      const folder = folderOf(bucket);
      const entries = await opendir(folder).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined; // nothing stored yet
        throw error;
      });
      if (!entries) return;
      for await (const entry of entries) {
        if (!entry.isFile()) continue;
        // Gone in the meantime (removed by a request): not listed.
        const info = await stat(path.join(folder, entry.name)).catch(() => undefined);
        if (info) yield { key: entry.name, modifiedAt: info.mtimeMs };
      }
    },
    async check() {
      await mkdir(root, { recursive: true });
      await access(root, constants.W_OK);
    },
    close() {},
    async read(bucket, key, options = {}) {
      const file = fileOf(bucket, key);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) return undefined;
      // The same weak validator @fastify/static (send) gives the files it serves.
      const etag = `W/"${info.size.toString(16)}-${info.mtime.getTime().toString(16)}"`;
      const notModified = options.ifNoneMatch === etag;
      const extension = path.extname(key).slice(1).toLowerCase();
      return {
        notModified,
        body: notModified || options.headOnly ? undefined : createReadStream(file),
        contentType: contentTypes[extension] ?? 'application/octet-stream',
        contentLength: info.size,
        etag,
        lastModified: info.mtime,
      };
    },
  };
}
