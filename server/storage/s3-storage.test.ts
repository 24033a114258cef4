import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { buckets } from '@common/constants';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLinkAs, postLink } from '../links/links.test-support';
import { startTcpProxy, type TcpProxy } from '../reliability/tcp-proxy';
import { startTestS3, type TestS3 } from '../test/s3-server';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { makeImage, multipart, registerUser } from '../test/test-users';
import { createS3Storage } from './s3-storage';
import { StorageUnavailableError } from './storage';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => s3.close());

const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const storageOn = (endpoint: string) =>
  createS3Storage({
    endpoint,
    region: 'us-east-1',
    bucket: s3.bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    timeoutMs: 2000,
  });

describe('S3 object storage', () => {
  it('keeps each bucket of the spec as a prefix of one bucket, and reads, lists and removes there', async () => {
    const storage = await storageOn(s3.endpoint);
    await storage.put(buckets.qrs, 'qr-abc123.png', png, 'image/png');
    await storage.put(buckets.profilePictures, 'dp-Ana-1.png', png, 'image/png');
    expect(await s3.keys()).toEqual(expect.arrayContaining(['profile-pictures/dp-Ana-1.png', 'qrs/qr-abc123.png']));
    expect(storage.publicUrl(buckets.qrs, 'qr-abc123.png')).toBe('/storage/qrs/qr-abc123.png');

    const read = await storage.read(buckets.qrs, 'qr-abc123.png');
    const chunks: Buffer[] = [];
    for await (const chunk of read?.body ?? []) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(png)).toBe(true);
    expect(read?.contentType).toBe('image/png');
    expect(read?.etag).toMatch(/^"[0-9a-f]+"$/);
    expect(await storage.read(buckets.qrs, 'qr-abc123.png', { ifNoneMatch: read?.etag })).toMatchObject({ notModified: true });
    expect(await storage.read(buckets.qrs, 'qr-nada00.png')).toBeUndefined();

    const listed = [];
    for await (const object of storage.list(buckets.profilePictures)) listed.push(object.key);
    expect(listed).toContain('dp-Ana-1.png');
    expect(listed.every((key) => !key.includes('/'))).toBe(true);

    await storage.remove(buckets.qrs, 'qr-abc123.png');
    expect(await s3.keys()).not.toContain('qrs/qr-abc123.png');
    await expect(storage.put(buckets.qrs, '../corto.db', png, 'image/png')).rejects.toThrow(/Unsafe storage key/);
    storage.close();
  });

  it('reports a store it cannot reach as unavailable, not as a fault of the object', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: s3.port });
    await proxy.cut();
    const storage = await storageOn(`http://127.0.0.1:${proxy.port}`);
    await expect(storage.put(buckets.qrs, 'qr-caido1.png', png, 'image/png')).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(storage.read(buckets.qrs, 'qr-caido1.png')).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(storage.check()).rejects.toBeInstanceOf(StorageUnavailableError);
    await proxy.restore();
    await storage.check();
    storage.close();
    await proxy.close();
  });
});

describe.each(testDialects)('Corto on S3 storage, %s', (dialect) => {
  let t: TestApp;
  let proxy: TcpProxy;
  beforeEach(async () => {
    // Between Corto and the store, so a test can take the store away from this app alone.
    proxy = await startTcpProxy({ host: '127.0.0.1', port: s3.port });
    t = await createTestApp(dialect, s3.env(`http://127.0.0.1:${proxy.port}`));
  });
  afterEach(async () => {
    await t.close();
    await proxy.close();
  });

  const localFiles = async () => {
    const root = path.join(t.config.dataDir, 'storage');
    return existsSync(root) ? readdir(root, { recursive: true }) : [];
  };

  it('stores pictures and QR codes in the bucket, and serves them at /storage with ETag and cache headers', async () => {
    const { user, cookie } = await registerUser(t.app);
    const link = await createLinkAs(t.app, cookie);
    const keys = await s3.keys();
    expect(keys).toContain(`qrs/${path.basename(link.qr)}`);
    expect(keys).toContain(`profile-pictures/${path.basename(decodeURIComponent(user.profileImage))}`);
    expect(await localFiles()).toEqual([]);

    const qr = await t.app.inject({ method: 'GET', url: link.qr });
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toBe('image/png');
    expect(qr.rawPayload.subarray(0, 8).equals(png.subarray(0, 8))).toBe(true);
    expect(qr.headers['content-length']).toBe(String(qr.rawPayload.length));
    expect(qr.headers['cache-control']).toBe('public, max-age=86400');
    expect(qr.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const etag = qr.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);

    const again = await t.app.inject({ method: 'GET', url: link.qr, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    // A content-addressed name (a picture's upload time, a QR's version) is kept for a year.
    const picture = await t.app.inject({ method: 'GET', url: user.profileImage });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const versioned = await t.app.inject({ method: 'GET', url: `${link.qr}?v=123` });
    expect(versioned.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const head = await t.app.inject({ method: 'HEAD', url: link.qr });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(qr.rawPayload.length));
    expect(head.rawPayload.length).toBe(0);
  });

  it('answers 404 for what is not there or not a stored object, the database included', async () => {
    for (const url of ['/storage/qrs/qr-nada00.png', '/storage/otros/qr-nada00.png', '/storage/qrs/..%2Fcorto.db', '/storage/..%2Fcorto.db', '/storage/qrs/%2e%2e/%2e%2e/corto.db']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('SQLite format');
    }
  });

  it('streams a large object through: the answer starts before the store has sent it all', async () => {
    const size = 48 * 1024 * 1024;
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'qrs/qr-grande.png', Body: Buffer.alloc(size, 7), ContentType: 'image/png' }));
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const fromStoreBefore = proxy.bytesFromTarget;
    const response = await fetch(`${address}/storage/qrs/qr-grande.png`);
    // The headers are here and the client has read nothing yet. Read whole first, the object
    // would have crossed from the store already; streamed, only what the buffers hold has.
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(size));
    expect(proxy.bytesFromTarget - fromStoreBefore).toBeLessThan(size / 4);
    let received = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) received += chunk.length;
    expect(received).toBe(size);
    // 48 MB in and out of a local S3 server: seconds on a quiet machine, more on a loaded one.
  }, 120_000);

  it('with the store down: uploads and creation answer 503 in Spanish, redirects keep working, nothing half-stored', async () => {
    const { cookie } = await registerUser(t.app);
    const link = await createLinkAs(t.app, cookie);
    const keysBefore = await s3.keys();
    const countRows = async () => ({
      urls: (await t.database.db.selectFrom('urls').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
      users: (await t.database.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
    });
    const rowsBefore = await countRows();
    await proxy.cut();

    const created = await postLink(t.app, cookie, { title: 'Sin almacén', longUrl: 'https://example.com/sin' });
    expect(created.statusCode).toBe(503);
    expect(created.json()).toEqual({
      error: { code: 'storage_unavailable', message: 'No se pueden guardar archivos en este momento. Inténtalo de nuevo en unos minutos.' },
    });
    const body = await multipart({
      name: 'Sin Almacén',
      email: `sin-almacen-${Date.now()}@corto.test`,
      password: 'secreto-123',
      profileImage: { bytes: await makeImage(), filename: 'a.png', type: 'image/png' },
    });
    const registered = await t.app.inject({ method: 'POST', url: '/api/auth/register', ...body });
    expect(registered.statusCode).toBe(503);
    expect(registered.json().error.code).toBe('storage_unavailable');

    const visit = await t.app.inject({ method: 'GET', url: `/${link.shortCode}` });
    expect(visit.statusCode).toBe(302);
    expect(visit.headers.location).toBe('https://example.com/a');
    const qr = await t.app.inject({ method: 'GET', url: link.qr });
    expect(qr.statusCode).toBe(503);

    await proxy.restore();
    expect(await countRows()).toEqual(rowsBefore);
    expect(await s3.keys()).toEqual(keysBefore);
    // Back: creation works again.
    expect((await postLink(t.app, cookie, { title: 'De vuelta', longUrl: 'https://example.com/vuelta' })).statusCode).toBe(201);
  });
});
