import { timingSafeEqual } from 'node:crypto';
import { errorMessages } from '@common/messages';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../http/error-handler';
import type { Metrics } from './metrics';

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** GET /metrics: Prometheus text; with METRICS_TOKEN set, only for `Authorization: Bearer <token>`. */
export async function metricsRoutes(app: FastifyInstance, { metrics, token }: { metrics: Metrics; token: string | undefined }) {
  app.get('/metrics', async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    if (token) {
      const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
      if (!same(given, token)) {
        return reply.status(401).header('www-authenticate', 'Bearer').send(errorBody('unauthorized', errorMessages.unauthorized));
      }
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
