import { errorMessages } from '@common/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorBody } from './error-handler';

const timers = new WeakMap<FastifyRequest, NodeJS.Timeout>();

/**
 * An API call still unanswered `deadlineMs` after its body was read is answered 503 in Spanish.
 * A database that has gone silent (a network partition: no reset, no error) would otherwise hold
 * the call, and the next ones, for as long as the partition lasts. Answers already on their way
 * (a CSV being streamed) are left alone. 0 turns it off.
 *
 * Registered on the API's scope, so it holds for each of its routes whatever the path's spelling;
 * it starts at preHandler, once the body (a picture on a slow phone) is in, before the route's own
 * preHandlers and its handler, the parts that wait for the database.
 */
export function registerApiDeadline(app: FastifyInstance, deadlineMs: number): void {
  if (deadlineMs <= 0) return;
  app.addHook('preHandler', async (request, reply) => {
    // A route whose work is long by nature (an import of 10,000 rows) says so in its config.
    if ((request.routeOptions.config as { longRunning?: boolean } | undefined)?.longRunning) return;
    const timer = setTimeout(() => {
      // Whether the client is gone is the socket's to say: a request whose body has been read is
      // a destroyed stream already, which once kept every call with a body from its deadline.
      if (reply.sent || reply.raw.headersSent || request.raw.socket.destroyed) return;
      request.log.warn({ deadlineMs, route: `${request.method} ${request.routeOptions.url}` }, 'API call past its deadline: answered 503 (is the database answering?)');
      void reply.status(503).send(errorBody('database_unavailable', errorMessages.databaseUnavailable));
    }, deadlineMs);
    timer.unref();
    timers.set(request, timer);
  });
  app.addHook('onResponse', async (request) => clearTimeout(timers.get(request)));
}
