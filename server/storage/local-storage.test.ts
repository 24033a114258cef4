import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { createLocalStorage, sharedFolderSync } from './local-storage';

describe('local object storage', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp('sqlite');
  });
  afterEach(async () => t.close());

  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

  it('stores an object under DATA_DIR and the server publishes it at its public address', async () => {
    const storage = createLocalStorage(path.join(t.config.dataDir, 'storage'));
    await storage.put('qrs', 'qr-abc123.png', png, 'image/png');
    expect(storage.publicUrl('qrs', 'qr-abc123.png')).toBe('/storage/qrs/qr-abc123.png');

    const response = await t.app.inject({ method: 'GET', url: '/storage/qrs/qr-abc123.png' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.rawPayload.equals(png)).toBe(true);
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    expect(response.headers.etag).toBeTruthy();
    // A picture's name carries its upload time: kept for a year.
    await storage.put('profile-pictures', 'dp-Ana-9.png', png, 'image/png');
    const picture = await t.app.inject({ method: 'GET', url: '/storage/profile-pictures/dp-Ana-9.png' });
    expect(picture.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('removes an object, after which it answers 404', async () => {
    const storage = createLocalStorage(path.join(t.config.dataDir, 'storage'));
    await storage.put('profile-pictures', 'dp-Ana-1.png', png, 'image/png');
    await storage.remove('profile-pictures', 'dp-Ana-1.png');
    expect(existsSync(path.join(t.config.dataDir, 'storage', 'profile-pictures', 'dp-Ana-1.png'))).toBe(false);
    const response = await t.app.inject({ method: 'GET', url: '/storage/profile-pictures/dp-Ana-1.png' });
    expect(response.statusCode).toBe(404);
  });

  it('leaves no temporary file behind, whether the write succeeds or fails', async () => {
    const root = path.join(t.config.dataDir, 'storage');
    const storage = createLocalStorage(root);
    await storage.put('qrs', 'qr-bien01.png', png, 'image/png');
    // A folder where the file should go: the final rename fails.
    await mkdir(path.join(root, 'qrs', 'qr-falla1.png'));
    await expect(storage.put('qrs', 'qr-falla1.png', png, 'image/png')).rejects.toThrow();
    expect((await readdir(path.join(root, 'qrs'))).sort()).toEqual(['qr-bien01.png', 'qr-falla1.png']);
  });

  it('lists a bucket with the time of each file, leftovers of interrupted writes included', async () => {
    const root = path.join(t.config.dataDir, 'storage');
    const storage = createLocalStorage(root);
    const listed = async () => {
      const objects = [];
      for await (const object of storage.list('qrs')) objects.push(object);
      return objects.sort((a, b) => a.key.localeCompare(b.key));
    };
    expect(await listed()).toEqual([]);
    await storage.put('qrs', 'qr-uno001.png', png, 'image/png');
    await writeFile(path.join(root, 'qrs', 'qr-dos002.png.abc.partial'), 'medio');
    await mkdir(path.join(root, 'qrs', 'carpeta'));
    const objects = await listed();
    expect(objects.map((object) => object.key)).toEqual(['qr-dos002.png.abc.partial', 'qr-uno001.png']);
    for (const object of objects) expect(Math.abs(object.modifiedAt - Date.now())).toBeLessThan(60_000);
  });

  it('refuses keys that could leave their bucket', async () => {
    const storage = createLocalStorage(path.join(t.config.dataDir, 'storage'));
    for (const key of ['../corto.db', 'a/b.png', '', '.hidden', 'x..png']) {
      await expect(storage.put('qrs', key, png, 'image/png')).rejects.toThrow(/Unsafe storage key/);
    }
  });

  it('does not serve the database through the storage address', async () => {
    for (const url of ['/storage/..%2Fcorto.db', '/storage/../corto.db', '/storage/qrs/..%2F..%2Fcorto.db']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect([403, 404]).toContain(response.statusCode);
      expect(response.body).not.toContain('SQLite format');
    }
  });

  it('shares a folder sync among the writes waiting for it, each answered by a sync begun after its call', async () => {
    const started: string[] = [];
    const finish: (() => void)[] = [];
    const sync = sharedFolderSync(async (folder) => {
      started.push(folder);
      await new Promise<void>((resolve) => finish.push(resolve));
    });
    const done: string[] = [];
    const first = sync('qrs').then(() => done.push('first'));
    await Promise.resolve();
    await Promise.resolve();
    expect(started).toEqual(['qrs']);
    // Called while the first sync runs: they share the next one, which waits for it.
    const second = sync('qrs').then(() => done.push('second'));
    const third = sync('qrs').then(() => done.push('third'));
    finish[0]!();
    await first;
    expect(done).toEqual(['first']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['qrs', 'qrs']);
    finish[1]!();
    await Promise.all([second, third]);
    expect(done).toEqual(['first', 'second', 'third']);
    expect(started).toHaveLength(2);
  });

  it('makes its bucket folder again if it has gone since the last write', async () => {
    const root = path.join(t.config.dataDir, 'storage');
    const storage = createLocalStorage(root);
    await storage.put('qrs', 'qr-uno.png', png, 'image/png');
    await rm(path.join(root, 'qrs'), { recursive: true });
    await storage.put('qrs', 'qr-dos.png', png, 'image/png');
    expect(await readdir(path.join(root, 'qrs'))).toEqual(['qr-dos.png']);
  });
});
