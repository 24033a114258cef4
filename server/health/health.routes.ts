import { errorMessages } from '@common/messages';
import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { newRedis } from '../redis/redis-client';
import { sql } from 'kysely';
import type { AppContext } from '../app-context';
import { errorBody } from '../http/error-handler';
import { reasonOf } from './reasons';

const READY_CHECK_MS = 2000;

/** Settles with 'ok' or the reason within waitMs, never throws. */
async function probe(check: () => Promise<unknown>, waitMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => (timer = setTimeout(resolve, waitMs, 'sin respuesta')));
  try {
    return await Promise.race([check().then(() => 'ok'), late]);
  } catch (error) {
    return reasonOf(error);
  } finally {
    clearTimeout(timer);
  }
}

export async function healthRoutes(app: FastifyInstance, { database, storage, config }: Pick<AppContext, 'database' | 'storage' | 'config'>) {
  // A proxy or an orchestrator asks every few seconds: their answers are not worth a log line
  // each. Warnings (a readiness check that fails) are still written.
  const quiet: RouteShorthandOptions = { logLevel: 'warn' };

  /**
   * Liveness: the process answers. Nothing else is asked, so a database or store outage does not
   * take an instance out of a load balancer that checks this: it goes on serving the redirects
   * it has cached and answers 503 only where the database is needed.
   */
  app.get('/api/health', quiet, async () => ({ status: 'ok', database: database.dialect }));

  // Its own connection, so a readiness check tells about Redis itself, not about a busy client.
  const redis = config.redisUrl ? newRedis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true }) : undefined;
  redis?.on('error', () => {});
  app.addHook('onClose', async () => redis?.disconnect());

  // The three at once, and within the API's deadline, so that a silent dependency gets its own
  // 'sin respuesta' rather than the deadline's 503 for the whole answer.
  const waitMs = config.apiDeadlineMs > 0 ? Math.min(READY_CHECK_MS, Math.floor(config.apiDeadlineMs / 2)) : READY_CHECK_MS;

  /** Readiness: the database, the object store and (when configured) Redis all answer now. */
  app.get('/api/health/ready', quiet, async (request, reply) => {
    const [databaseState, storageState, redisState] = await Promise.all([
      probe(() => sql`select 1`.execute(database.db), waitMs),
      probe(() => storage.check(), waitMs),
      redis
        ? probe(async () => {
            if (redis.status === 'wait' || redis.status === 'end') await redis.connect();
            await redis.ping();
          }, waitMs)
        : 'sin configurar',
    ]);
    const checks = { database: databaseState, storage: storageState, redis: redisState };
    const ready = Object.values(checks).every((state) => state === 'ok' || state === 'sin configurar');
    if (ready) return { status: 'ok', checks };
    request.log.warn({ checks }, 'readiness check failed');
    return reply.status(503).send({ ...errorBody('not_ready', errorMessages.notReady), checks });
  });
}
