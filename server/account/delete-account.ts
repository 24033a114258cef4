import { buckets } from '@common/constants';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../app-context';
import { keepAnAdmin } from '../admin/last-admin';
import type { Database } from '../db/database';
import { orphanHoldsOf } from '../links/held-addresses';
import { domainsChanged } from '../domains/domains-changed';
import { anyDomainIn } from '../domains/domains.queries';
import { forgetRemovedLinks, removeLinks } from '../links/links-removal';
import { leaveWorkspacesOf } from '../workspaces/account-workspaces';

// Leaving Corto (DELETE /api/account) and an operator's deletion (DELETE /api/admin/users/:id)
// both end here: one place knows everything a user owns.

export interface DeleteAccountOptions {
  /** Where a file that could not be removed is reported (the orphan sweep takes it later). */
  log?: FastifyBaseLogger;
  /** The 409's sentence when the account is the last active admin (the operator's by default). */
  lastAdminMessage?: string;
  /** The 409's sentence when the account is the last owner of teams with members (the operator's by default). */
  lastOwnerMessage?: (names: string[]) => string;
}

/**
 * Removes a user and everything of theirs: their personal workspace and the team workspaces they
 * are alone in, with those workspaces' links, clicks, roll-ups, unique-visitor rows, totals, former
 * aliases and tags; their idempotency keys, sessions, API tokens, password-reset and e-mail
 * verification links, two-factor secrets and recovery codes, then their stored files (QR images and
 * the profile picture). The links they created in teams that stay pass to an owner of each team
 * (account-workspaces.ts). The removed short addresses stop redirecting at once on this instance
 * and, with REDIS_URL, on every other, and are held for ADDRESS_HOLD_DAYS, for nobody to take
 * (held-addresses.ts). An unknown id does nothing. The last active admin is refused (409), whoever
 * asks, and so is the last owner of a team workspace with other members.
 */
export async function deleteAccount(context: AppContext, userId: number, options: DeleteAccountOptions = {}): Promise<void> {
  const { database, storage } = context;
  const { db } = database;

  // Clicks still queued for these links would only be refused once the links are gone.
  await context.clickWriter.flush().catch(() => {});

  const removed = await db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select('profile_image').where('id', '=', userId).executeTakeFirst();
    if (!user) return undefined;
    await keepAnAdmin(trx, userId, options.lastAdminMessage);
    const workspaceIds = await leaveWorkspacesOf(trx, userId, { lastOwnerMessage: options.lastOwnerMessage });
    // The workspaces going with the account, and whatever it created that no owner took over.
    const links = await removeLinks(trx, { workspaceIds, createdBy: userId }, context.config.addressHoldDays);
    // Holds of links they deleted lately stay, for nobody to take back either.
    await orphanHoldsOf(trx, userId);
    // Their domains go with the workspaces (the foreign key cascades).
    const hadDomains = await anyDomainIn(trx, workspaceIds);
    await deleteRowsOf(trx, userId, workspaceIds);
    return { profileImage: user.profile_image, links, hadDomains };
  });
  if (!removed) return;
  // Their API tokens stop at once too, here and on every instance.
  await context.tokenCache.forgetUser(userId);
  await forgetRemovedLinks(context, removed.links, options.log);
  if (removed.hadDomains) await domainsChanged(context);

  // The rows are gone: the picture is only tidied up. One that cannot be removed now is an orphan
  // the storage sweep (server/storage/orphan-sweep.ts) removes later.
  // '' is an account the provider made, which never had a picture.
  if (removed.profileImage) await storage.remove(buckets.profilePictures, removed.profileImage).catch((error: unknown) => {
    options.log?.warn({ err: error, bucket: buckets.profilePictures, key: removed.profileImage }, 'could not remove a deleted account file');
  });
}

/**
 * Every row of the user, children first. The foreign keys cascade from users too, but naming each
 * table keeps this the one list to extend when a table that belongs to a user is added.
 */
async function deleteRowsOf(db: Database, userId: number, workspaceIds: number[]): Promise<void> {
  await db.deleteFrom('user_link_totals').where('user_id', '=', userId).execute();
  await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).execute();
  await db.deleteFrom('api_tokens').where('user_id', '=', userId).execute();
  // Their members, invitations, activity, tags and totals cascade with them.
  if (workspaceIds.length > 0) await db.deleteFrom('workspaces').where('id', 'in', workspaceIds).execute();
  await db.deleteFrom('workspace_members').where('user_id', '=', userId).execute();
  await db.deleteFrom('password_resets').where('user_id', '=', userId).execute();
  await db.deleteFrom('email_verifications').where('user_id', '=', userId).execute();
  await db.deleteFrom('totp_challenges').where('user_id', '=', userId).execute();
  await db.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await db.deleteFrom('users').where('id', '=', userId).execute();
}
