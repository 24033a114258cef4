import { errorMessages } from '@common/messages';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../app-context';
import { errorBody } from '../http/error-handler';

export async function healthRoutes(app: FastifyInstance, { database }: { database: AppContext['database'] }) {
  app.get('/api/health', async (request, reply) => {
    try {
      await sql`select 1`.execute(database.db);
      return { status: 'ok', database: database.dialect };
    } catch (error) {
      request.log.warn({ err: error }, 'health check: database did not answer');
      return reply.status(503).send(errorBody('database_unavailable', errorMessages.databaseUnavailable));
    }
  });
}
