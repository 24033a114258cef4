import { errorMessages } from '@common/messages';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { AppContext } from '../app-context';
import { errorBody } from '../http/error-handler';

const READY_CHECK_MS = 2000;

/** Settles with 'ok' or the reason within READY_CHECK_MS, never throws. */
async function probe(check: () => Promise<unknown>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => (timer = setTimeout(resolve, READY_CHECK_MS, 'sin respuesta')));
  try {
    return await Promise.race([check().then(() => 'ok'), late]);
  } catch (error) {
    return (error as Error).name || 'error';
  } finally {
    clearTimeout(timer);
  }
}

export async function healthRoutes(app: FastifyInstance, { database, storage, config }: Pick<AppContext, 'database' | 'storage' | 'config'>) {
  /** Liveness: the process answers and its database does. */
  app.get('/api/health', async (request, reply) => {
    try {
      await sql`select 1`.execute(database.db);
      return { status: 'ok', database: database.dialect };
    } catch (error) {
      request.log.warn({ err: error }, 'health check: database did not answer');
      return reply.status(503).send(errorBody('database_unavailable', errorMessages.databaseUnavailable));
    }
  });

  // Its own connection, so a readiness check tells about Redis itself, not about a busy client.
  const redis = config.redisUrl ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true }) : undefined;
  redis?.on('error', () => {});
  app.addHook('onClose', async () => redis?.disconnect());

  /** Readiness: the database, the object store and (when configured) Redis all answer now. */
  app.get('/api/health/ready', async (request, reply) => {
    const checks = {
      database: await probe(() => sql`select 1`.execute(database.db)),
      storage: await probe(() => storage.check()),
      redis: redis
        ? await probe(async () => {
            if (redis.status === 'wait' || redis.status === 'end') await redis.connect();
            await redis.ping();
          })
        : 'sin configurar',
    };
    const ready = Object.values(checks).every((state) => state === 'ok' || state === 'sin configurar');
    if (ready) return { status: 'ok', checks };
    request.log.warn({ checks }, 'readiness check failed');
    return reply.status(503).send({ ...errorBody('not_ready', errorMessages.notReady), checks });
  });
}
