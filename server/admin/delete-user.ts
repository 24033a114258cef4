import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../app-context';
import { deleteAccount } from '../account/delete-account';

/** An operator's deletion of an account: exactly the user's own (DELETE /api/account). */
export async function deleteUserAccount(context: AppContext, userId: number, log: FastifyBaseLogger): Promise<void> {
  await deleteAccount(context, userId, { log });
}
