import { type Bucket, buckets, STORAGE_PATH_PREFIX } from '@common/constants';
import { errorMessages } from '@common/messages';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';
import { storedFileResourcePolicy } from '../http/security-headers';
import { isSafeKey } from './storage';

const bucketNames = new Set<string>(Object.values(buckets));

/**
 * How long a browser or a CDN may keep an object. A profile picture's or a preview image's name
 * carries the time of its upload and is never written again, and a QR asked for with `?v=` (the
 * link's edit time) names one version: all content-addressed, so kept for a year. A bare QR
 * address keeps its content until its alias changes: a day, revalidated with the ETag after that.
 */
export function storedObjectCacheControl(bucket: Bucket, versioned: boolean): string {
  return bucket === buckets.profilePictures || bucket === buckets.previews || versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=86400';
}

/**
 * GET/HEAD /storage/{bucket}/{key} from an object store that is not a local folder (S3): the same
 * public addresses as the local mode, streamed from the store to the client, never read whole
 * into memory, with the store's ETag for conditional requests.
 */
export async function storageRoutes(app: FastifyInstance, { storage }: Pick<AppContext, 'storage'>) {
  app.route<{ Params: { bucket: string; key: string }; Querystring: { v?: string } }>({
    method: ['GET', 'HEAD'],
    url: `${STORAGE_PATH_PREFIX}/:bucket/:key`,
    exposeHeadRoute: false,
    async handler(request, reply) {
      const { bucket, key } = request.params;
      const notFound = () => reply.status(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(errorMessages.notFound);
      if (!bucketNames.has(bucket) || !isSafeKey(key)) return notFound();
      const ifNoneMatch = request.headers['if-none-match'];
      const object = await storage.read(bucket as Bucket, key, { ifNoneMatch, headOnly: request.method === 'HEAD' });
      if (!object) return notFound();
      void reply
        .header('cache-control', storedObjectCacheControl(bucket as Bucket, typeof request.query.v === 'string'))
        .header('cross-origin-resource-policy', storedFileResourcePolicy);
      if (object.etag) void reply.header('etag', object.etag);
      if (object.notModified) return reply.status(304).send();
      void reply.type(object.contentType);
      if (object.lastModified) void reply.header('last-modified', object.lastModified.toUTCString());
      if (object.contentLength !== undefined) void reply.header('content-length', String(object.contentLength));
      return reply.send(object.body ?? '');
    },
  });
}
