import { STORAGE_PATH_PREFIX } from '@common/constants';
import { errorMessages } from '@common/messages';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';
import { clientKey } from '../http/client-key';
import { createMissThrottle } from '../redirect/miss-throttle';

const underStorage = (url: string) => url.startsWith(`${STORAGE_PATH_PREFIX}/`);

/**
 * Files asked for under /storage that do not exist, counted per client like unknown short
 * addresses (the same throttle and REDIRECT_MISS_LIMIT a minute, shared through Redis when
 * REDIS_URL is set): past it, every /storage request of that client gets a Spanish 429 until its
 * minute ends, existing files included (or a hit would still tell apart from a miss), so names are
 * not found by trying. Counted apart from short addresses: a mistyped link costs no pictures.
 */
export function registerStorageMissThrottle(app: FastifyInstance, { config, limiters }: Pick<AppContext, 'config' | 'limiters'>): void {
  const points = config.redirectMissLimit;
  const misses = createMissThrottle({
    limit: points,
    shared: limiters.shared ? limiters.create({ name: 'storage-miss', points, durationSeconds: 60 }) : undefined,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!underStorage(request.url)) return;
    const wait = misses.waitOf(clientKey(request.ip));
    if (wait > 0) {
      return reply
        .status(429)
        .header('retry-after', String(wait))
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(errorMessages.storageTooManyMisses);
    }
  });
  // Before the 404 leaves: a client's next request already sees its count (and the shared one).
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode === 404 && underStorage(request.url)) await misses.miss(clientKey(request.ip));
    return payload;
  });
}
