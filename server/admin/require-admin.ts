import { errorMessages } from '@common/messages';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireUser } from '../auth/require-user';
import { AppError } from '../http/app-error';

/** preHandler of every /api/admin route: 401 without a session, 403 for someone who is not an admin. */
export async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireUser(request, reply);
  if (request.user?.role !== 'admin') throw new AppError('forbidden', errorMessages.forbidden);
}
