import { createReadStream, mkdirSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { type Bucket, STORAGE_PATH_PREFIX } from '@common/constants';
import { errorMessages } from '@common/messages';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';
import { errorBody } from '../http/error-handler';
import { storedFileResourcePolicy } from '../http/security-headers';
import { registerStorageMissThrottle } from '../storage/storage-misses';
import { storageRoutes, storedObjectCacheControl } from '../storage/storage.routes';
import { named } from '../http/plugin-name';

/** The built web app, the stored files, and the fallback that lets the client router own its paths. */
export async function staticRoutes(app: FastifyInstance, { config, storage, limiters }: Pick<AppContext, 'config' | 'storage' | 'limiters'>) {
  // Before the files' routes: guessing file names is throttled like guessing short addresses.
  registerStorageMissThrottle(app, { config, limiters });
  if (storage.kind === 'local') await localStorageRoutes(app, path.join(config.dataDir, 'storage'));
  else await app.register(named('storageRoutes', storageRoutes), { storage });

  const { webDir } = config;
  if (webDir) {
    await app.register(fastifyStatic, {
      root: webDir,
      // One route per built file: the rest of the path space stays free for short codes.
      wildcard: false,
      cacheControl: false,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    if (url.startsWith('/api/') || url === '/api') {
      return reply.status(404).header('cache-control', 'no-store').send(errorBody('not_found', errorMessages.notFound));
    }
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (webDir && wantsPage && !url.startsWith(`${STORAGE_PATH_PREFIX}/`)) {
      // Streamed by hand: when the redirect route hands an app path over with callNotFound, the reply
      // comes from its plugin and lacks @fastify/static's sendFile.
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(createReadStream(path.join(webDir, 'index.html')));
    }
    return reply.status(404).type('text/plain; charset=utf-8').send(errorMessages.notFound);
  });
}

/** The local folder's files, served by @fastify/static (ETag, ranges, and the path checks it makes). */
async function localStorageRoutes(app: FastifyInstance, storageRoot: string) {
  mkdirSync(storageRoot, { recursive: true });
  await app.register(fastifyStatic, {
    root: storageRoot,
    prefix: `${STORAGE_PATH_PREFIX}/`,
    decorateReply: false,
    index: false,
    // The same caching as from an object store: a year for content-addressed names, else a day.
    cacheControl: false,
    // The QR codes and pictures are published for anyone to embed (the rest of the site is same-origin).
    setHeaders(res, filePath) {
      const bucket = path.basename(path.dirname(filePath)) as Bucket;
      // @fastify/static hands over Node's response (its type names only a few of its members).
      const url = (res as unknown as ServerResponse).req.url ?? '/';
      const versioned = new URL(url, 'http://x').searchParams.has('v');
      res.setHeader('cache-control', storedObjectCacheControl(bucket, versioned));
      res.setHeader('cross-origin-resource-policy', storedFileResourcePolicy);
    },
  });
}
