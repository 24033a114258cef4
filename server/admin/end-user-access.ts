import type { AppContext } from '../app-context';

/**
 * What disabling an account ends at once: its sessions, its API tokens, and its links on every
 * instance's redirect cache (they answer 410 from the next visit, as the lookup sees the owner
 * disabled). The whole cache is dropped rather than each of a user's links, which can number
 * 100,000: it refills from the database as visits come.
 */
export async function endUserAccess(context: Pick<AppContext, 'database' | 'linkCache' | 'tokenCache'>, userId: number): Promise<void> {
  const { db } = context.database;
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await db.deleteFrom('api_tokens').where('user_id', '=', userId).execute();
  await context.tokenCache.forgetUser(userId);
  await context.linkCache.forgetAll();
}
