import { accountMessages as a } from '@common/account/account-messages';
import { sessionsResponseSchema } from '@common/account/account-schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { requireUser, signedInUser } from '../auth/require-user';
import { SESSION_COOKIE } from '../auth/sessions';
import { AppError } from '../http/app-error';
import { endSession, endSessionsOf, listSessions } from './account.queries';
import { deviceLabel } from './device-label';

const iso = (ms: number) => new Date(ms).toISOString();

/** The signed-in user's sessions: the list, 'Cerrar' on one, 'Cerrar las demás'. */
export async function sessionsRoutes(app: FastifyInstance, { database }: AppContext) {
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.addHook('preHandler', requireUser);

  routes.get('/api/account/sessions', { schema: { response: { 200: sessionsResponseSchema } } }, async (request) => {
    const user = signedInUser(request);
    const rows = await listSessions(db, user.id, Date.now());
    return {
      sessions: rows.map((row) => ({
        id: row.public_id,
        createdAt: iso(row.created_at),
        lastSeenAt: iso(row.last_seen_at ?? row.created_at),
        device: deviceLabel(row.user_agent),
        current: row.public_id === user.sessionId,
      })),
    };
  });

  // 'Cerrar las demás': every session but the request's own.
  routes.delete('/api/account/sessions', { schema: { response: { 204: z.null() } } }, async (request, reply) => {
    const user = signedInUser(request);
    const own = await db.selectFrom('sessions').select('token_hash').where('public_id', '=', user.sessionId ?? '').executeTakeFirst();
    await endSessionsOf(db, user.id, own?.token_hash);
    return reply.status(204).send(null);
  });

  routes.delete(
    '/api/account/sessions/:id',
    { schema: { params: z.object({ id: z.string() }), response: { 204: z.null() } } },
    async (request, reply) => {
      const user = signedInUser(request);
      // Another user's session answers as one that does not exist.
      if (!(await endSession(db, user.id, request.params.id))) throw new AppError('not_found', a.sessionNotFound);
      if (request.params.id === user.sessionId) reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.status(204).send(null);
    },
  );
}
