import { RESET_LINK_MINUTES } from '@common/account/account-messages';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { hashPassword } from '../auth/passwords';
import { hashToken } from '../auth/sessions';
import { findUserByEmail } from '../auth/auth.queries';
import { deleteAllUserTokens } from '../tokens/tokens.queries';
import type { Mailer } from '../mail/mailer';
import { resetMail } from '../mail/reset-mail';
import { newOneTimeToken, oneTimeLink } from './one-time-link';

// Password recovery: a random token (256 bits) in a link, of which only the SHA-256 is stored;
// valid RESET_LINK_MINUTES, once. Setting the new password ends every session and every API token
// of the account. A link is spent as soon as the account's e-mail or password changes, whichever
// way (this reset, the account page): spendResetLinks, in the same transaction as the change.

export const RESET_PATH = '/auth/restablecer';
const RESET_LIFETIME_MS = RESET_LINK_MINUTES * 60 * 1000;

/** A new one-time link for the user (the e-mail's, or the operator's `reset-link` command's). */
export async function createResetLink(db: Database, config: Config, userId: number, now = Date.now()): Promise<string> {
  const { token, tokenHash } = newOneTimeToken();
  // Expired links of anyone go while we are here, as sessions do.
  await db.deleteFrom('password_resets').where('expires_at', '<', now).execute();
  await db
    .insertInto('password_resets')
    .values({ token_hash: tokenHash, user_id: userId, created_at: now, expires_at: now + RESET_LIFETIME_MS, used_at: null })
    .execute();
  return oneTimeLink(config, RESET_PATH, token);
}

/** The e-mail for an address, if an account has it; nothing (and no sign of it) otherwise. */
export async function sendResetMail(db: Database, config: Config, mailer: Mailer, email: string): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (!user) return;
  const link = await createResetLink(db, config, user.id);
  await mailer.send(resetMail(user.email, user.name, link));
}

/** Spends every open reset link of the user: its e-mail or password has just changed. */
export async function spendResetLinks(db: Database, userId: number, now = Date.now()): Promise<void> {
  await db.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/**
 * Uses the token once: the new password is set, and every session and API token of the user ends
 * (the caller forgets the tokens in the token cache: tokenCache.forgetUser). The user's id, or
 * undefined when the token is unknown, used or expired (nothing changes then).
 */
export async function confirmReset(db: Database, token: string, password: string, now = Date.now()): Promise<number | undefined> {
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    // Taken by a conditional update: two submissions of one link cannot both pass.
    const taken = await trx
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', hashToken(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    if (!taken) return undefined;
    await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', taken.user_id).execute();
    // Every other link of the account is spent too, every session ends, and every API token: a
    // hijacker who made one keeps nothing once the owner takes the account back.
    await spendResetLinks(trx, taken.user_id, now);
    await trx.deleteFrom('sessions').where('user_id', '=', taken.user_id).execute();
    await trx.deleteFrom('totp_challenges').where('user_id', '=', taken.user_id).execute();
    await deleteAllUserTokens(trx, taken.user_id);
    return taken.user_id;
  });
}
