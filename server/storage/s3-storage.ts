import type { Readable } from 'node:stream';
import { type Bucket, STORAGE_PATH_PREFIX } from '@common/constants';
import { assertSafeKey, type ObjectStorage, StorageUnavailableError, type StoredObject } from './storage';

export interface S3StorageOptions {
  /** An S3-compatible server's address; unset for Amazon S3 itself. */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  /** Unset: the SDK's own chain (environment, instance role...). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** bucket in the path (http://host/bucket/key), as most self-hosted stores want, rather than in the host name. */
  forcePathStyle: boolean;
  /** How long one call may take before the store counts as unavailable. */
  timeoutMs?: number;
}

/** An object store that lives, answers 'no such object' (or 'not modified') through the HTTP status. */
function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}

/** A store that answered 4xx about the object itself (not about us) is not 'unavailable'. */
const isAnswerAboutObject = (status: number | undefined) => status === 404 || status === 304 || status === 412;

/**
 * The spec's buckets as prefixes (`qrs/`, `profile-pictures/`) in one bucket of an S3-compatible
 * store. Corto keeps publishing them at /storage/{bucket}/{key} and serves them from the store,
 * streaming: a PUT is atomic in S3, so a reader never sees half an object and no temporary object
 * is needed. Any failure to reach the store is a StorageUnavailableError (503 to the user).
 */
export async function createS3Storage(options: S3StorageOptions): Promise<ObjectStorage> {
  // Loaded here, not at the top: an embedded install never pays for the SDK (it is large to import).
  const { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } =
    await import('@aws-sdk/client-s3');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
    // A store that is down should fail the request in seconds, not hang it: one retry, bounded waits.
    maxAttempts: 2,
    requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs },
  });
  const Bucket = options.bucket;
  const keyOf = (bucket: Bucket, key: string) => {
    assertSafeKey(key);
    return `${bucket}/${key}`;
  };
  const guarded = async <T>(operation: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (isAnswerAboutObject(statusOf(error))) throw error;
      throw new StorageUnavailableError(operation, error);
    }
  };

  return {
    kind: 's3',
    async put(bucket, key, body, contentType) {
      const Key = keyOf(bucket, key);
      await guarded('put', () => client.send(new PutObjectCommand({ Bucket, Key, Body: body, ContentType: contentType })));
    },
    publicUrl(bucket, key) {
      assertSafeKey(key);
      return `${STORAGE_PATH_PREFIX}/${bucket}/${encodeURIComponent(key)}`;
    },
    async remove(bucket, key) {
      const Key = keyOf(bucket, key);
      await guarded('remove', () => client.send(new DeleteObjectCommand({ Bucket, Key })));
    },
    async *list(bucket): AsyncIterable<StoredObject> {
      const Prefix = `${bucket}/`;
      let ContinuationToken: string | undefined;
      do {
        const token = ContinuationToken;
        const page = await guarded('list', () => client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken: token })));
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(Prefix.length);
          // Only the bucket's own level: a 'folder' below it is nothing the server made.
          if (!key || key.includes('/')) continue;
          yield { key, modifiedAt: object.LastModified?.getTime() ?? Date.now() };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async read(bucket, key, { ifNoneMatch, headOnly } = {}) {
      const Key = keyOf(bucket, key);
      try {
        const answer = headOnly
          ? await guarded('head', () => client.send(new HeadObjectCommand({ Bucket, Key, IfNoneMatch: ifNoneMatch })))
          : await guarded('get', () => client.send(new GetObjectCommand({ Bucket, Key, IfNoneMatch: ifNoneMatch })));
        const body = 'Body' in answer ? (answer.Body as Readable | undefined) : undefined;
        return {
          notModified: false,
          body,
          contentType: answer.ContentType ?? 'application/octet-stream',
          contentLength: answer.ContentLength,
          etag: answer.ETag,
          lastModified: answer.LastModified,
        };
      } catch (error) {
        const status = statusOf(error);
        if (status === 404) return undefined;
        if (status === 304) return { notModified: true, contentType: 'application/octet-stream', etag: ifNoneMatch };
        throw error;
      }
    },
    async check() {
      await guarded('check', () => client.send(new HeadBucketCommand({ Bucket })));
    },
    close() {
      client.destroy();
    },
  };
}
