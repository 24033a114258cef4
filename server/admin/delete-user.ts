import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../app-context';
import { endUserAccess } from './end-user-access';

/**
 * An operator's deletion of an account: the same as the user deleting it themselves.
 */
export async function deleteUserAccount(
  context: Pick<AppContext, 'database' | 'linkCache' | 'storage'>,
  userId: number,
  _log: FastifyBaseLogger,
): Promise<void> {
  // Until the account's own deletion lands: sessions end, links (clicks cascade) and the user go.
  await endUserAccess(context, userId);
  await context.database.db.deleteFrom('users').where('id', '=', userId).execute();
  await context.linkCache.forgetAll();
}
