import { errorMessages } from '@common/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorBody } from './error-handler';

const timers = new WeakMap<FastifyRequest, NodeJS.Timeout>();

/**
 * An API call still unanswered `deadlineMs` after its body was read is answered 503 in Spanish.
 * A database that has gone silent (a network partition: no reset, no error) would otherwise hold
 * the call, and the next ones, for as long as the partition lasts. Answers already on their way
 * (a CSV being streamed) are left alone. 0 turns it off.
 */
export function registerApiDeadline(app: FastifyInstance, deadlineMs: number): void {
  if (deadlineMs <= 0) return;
  app.addHook('preHandler', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    const timer = setTimeout(() => {
      if (reply.sent || reply.raw.headersSent || request.raw.destroyed) return;
      request.log.warn({ deadlineMs }, 'API call past its deadline: answered 503 (is the database answering?)');
      void reply.status(503).send(errorBody('database_unavailable', errorMessages.databaseUnavailable));
    }, deadlineMs);
    timer.unref();
    timers.set(request, timer);
  });
  app.addHook('onResponse', async (request) => clearTimeout(timers.get(request)));
}
