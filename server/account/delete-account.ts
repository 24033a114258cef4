import { buckets } from '@common/constants';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../app-context';
import { keepAnAdmin } from '../admin/last-admin';
import type { Database } from '../db/database';
import { holdAddresses, holdEnds, orphanHoldsOf } from '../links/held-addresses';
import type { LinkAddresses } from '../redirect/link-cache';

// Leaving Corto (DELETE /api/account) and an operator's deletion (DELETE /api/admin/users/:id)
// both end here: one place knows everything a user owns.

/** How many links' addresses are forgotten at once (each is one Redis publish with REDIS_URL). */
const FORGET_BATCH = 100;

interface OwnedLink extends LinkAddresses {
  qr: string;
}

export interface DeleteAccountOptions {
  /** Where a file that could not be removed is reported (the orphan sweep takes it later). */
  log?: FastifyBaseLogger;
  /** The 409's sentence when the account is the last active admin (the operator's by default). */
  lastAdminMessage?: string;
}

/**
 * Removes a user and everything of theirs: links, clicks, roll-ups, unique-visitor rows, totals,
 * former aliases, idempotency keys, sessions, API tokens, password-reset and e-mail verification links, two-factor
 * secrets and recovery codes, then their stored files (QR images and the profile picture). Their
 * short addresses stop redirecting at once on this instance and, with REDIS_URL, on every other,
 * and are held for ADDRESS_HOLD_DAYS, for nobody to take (held-addresses.ts).
 * An unknown id does nothing. The last active admin is refused (409), whoever asks.
 */
export async function deleteAccount(context: AppContext, userId: number, options: DeleteAccountOptions = {}): Promise<void> {
  const { database, linkCache, storage } = context;
  const { db } = database;

  // Clicks still queued for these links would only be refused once the links are gone.
  await context.clickWriter.flush().catch(() => {});

  const removed = await db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select('profile_image').where('id', '=', userId).executeTakeFirst();
    if (!user) return undefined;
    await keepAnAdmin(trx, userId, options.lastAdminMessage);
    const links = await ownedLinks(trx, userId);
    // Their addresses, and those of links they deleted lately, are held for nobody to take back.
    const addresses = links.flatMap((link) => [link.shortCode, ...(link.customUrl === null ? [] : [link.customUrl]), ...(link.previousAddresses ?? [])]);
    await holdAddresses(trx, addresses, null, holdEnds(context.config.addressHoldDays));
    await orphanHoldsOf(trx, userId);
    await deleteRowsOf(trx, userId);
    return { profileImage: user.profile_image, links };
  });
  if (!removed) return;
  // Their API tokens stop at once too, here and on every instance.
  await context.tokenCache.forgetUser(userId);

  // After the commit: a lookup racing with this sees no row and cannot put a link back in a cache.
  for (let start = 0; start < removed.links.length; start += FORGET_BATCH) {
    await Promise.all(removed.links.slice(start, start + FORGET_BATCH).map((link) => linkCache.forget(link)));
  }

  // The rows are gone: the files are only tidied up. One that cannot be removed now is an orphan
  // the storage sweep (server/storage/orphan-sweep.ts) removes later.
  const files = [
    { bucket: buckets.profilePictures, key: removed.profileImage },
    ...removed.links.map((link) => ({ bucket: buckets.qrs, key: link.qr })),
  ];
  for (const { bucket, key } of files) {
    await storage.remove(bucket, key).catch((error: unknown) => {
      options.log?.warn({ err: error, bucket, key }, 'could not remove a deleted account file');
    });
  }
}

async function ownedLinks(db: Database, userId: number): Promise<OwnedLink[]> {
  const rows = await db.selectFrom('urls').select(['id', 'short_url', 'custom_url', 'qr']).where('user_id', '=', userId).execute();
  // Joined rather than listed by id: an account may own more links than a statement takes parameters.
  const aliases = await db
    .selectFrom('former_aliases')
    .innerJoin('urls', 'urls.id', 'former_aliases.url_id')
    .select(['former_aliases.url_id', 'former_aliases.alias'])
    .where('urls.user_id', '=', userId)
    .execute();
  const former = new Map<number, string[]>();
  for (const { url_id, alias } of aliases) former.set(url_id, [...(former.get(url_id) ?? []), alias]);
  return rows.map((row) => ({
    shortCode: row.short_url,
    customUrl: row.custom_url,
    previousAddresses: former.get(row.id) ?? [],
    qr: row.qr,
  }));
}

/**
 * Every row of the user, children first. The foreign keys cascade from users too, but naming each
 * table keeps this the one list to extend when a table that belongs to a user is added.
 */
async function deleteRowsOf(db: Database, userId: number): Promise<void> {
  const linksOfUser = db.selectFrom('urls').select('id').where('user_id', '=', userId);
  await db.deleteFrom('former_aliases').where('url_id', 'in', linksOfUser).execute();
  await db.deleteFrom('click_visitors').where('url_id', 'in', linksOfUser).execute();
  await db.deleteFrom('click_rollups').where('url_id', 'in', linksOfUser).execute();
  await db.deleteFrom('clicks').where('url_id', 'in', linksOfUser).execute();
  await db.deleteFrom('urls').where('user_id', '=', userId).execute();
  await db.deleteFrom('user_link_totals').where('user_id', '=', userId).execute();
  await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).execute();
  await db.deleteFrom('api_tokens').where('user_id', '=', userId).execute();
  await db.deleteFrom('password_resets').where('user_id', '=', userId).execute();
  await db.deleteFrom('email_verifications').where('user_id', '=', userId).execute();
  await db.deleteFrom('totp_challenges').where('user_id', '=', userId).execute();
  await db.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await db.deleteFrom('users').where('id', '=', userId).execute();
}
