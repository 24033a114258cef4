import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../app-context';
import { deleteAccount } from '../account/delete-account';

/**
 * An operator's deletion of an account: exactly the user's own (DELETE /api/account), refused in
 * the operator's words when the account is the last owner of a team with other members.
 */
export async function deleteUserAccount(context: AppContext, userId: number, log: FastifyBaseLogger): Promise<void> {
  await deleteAccount(context, userId, { log });
}
