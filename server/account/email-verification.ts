import { VERIFY_LINK_HOURS } from '@common/account/account-messages';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { hashToken } from '../auth/sessions';
import type { Mailer } from '../mail/mailer';
import { verificationMail } from '../mail/verification-mail';
import { newOneTimeToken, oneTimeLink } from './one-time-link';

// Proving an address: a one-time link (one-time-link.ts, as password recovery's) mailed to the
// account's current address. Confirming it marks that address verified; the link proves only the
// address it was sent to, so it does nothing once the account's address has changed. A new address
// is unverified (account.routes.ts). ADMIN_EMAILS acts only on verified addresses (admin/admin-emails.ts).

export const VERIFY_PATH = '/auth/verificar';
const VERIFY_LIFETIME_MS = VERIFY_LINK_HOURS * 60 * 60 * 1000;
/** One mail a minute per account: the button cannot be used to flood a mailbox. */
export const VERIFY_RESEND_MS = 60 * 1000;

export type SendResult = 'sent' | 'verified' | 'wait';

/** Mails a verification link to the user's current address, unless it is verified or one went out within the minute. */
export async function sendVerificationMail(db: Database, config: Config, mailer: Mailer, userId: number, now = Date.now()): Promise<SendResult> {
  const user = await db.selectFrom('users').select(['email', 'name', 'email_verified_at']).where('id', '=', userId).executeTakeFirstOrThrow();
  if (user.email_verified_at !== null) return 'verified';
  const { token, tokenHash } = newOneTimeToken();
  const taken = await db.transaction().execute(async (trx) => {
    const recent = await trx
      .selectFrom('email_verifications')
      .select('token_hash')
      .where('user_id', '=', userId)
      .where('created_at', '>', now - VERIFY_RESEND_MS)
      .executeTakeFirst();
    if (recent) return false;
    // Expired links of anyone go while we are here, as password recovery's do.
    await trx.deleteFrom('email_verifications').where('expires_at', '<', now).execute();
    await trx
      .insertInto('email_verifications')
      .values({ token_hash: tokenHash, user_id: userId, email: user.email.toLowerCase(), created_at: now, expires_at: now + VERIFY_LIFETIME_MS, used_at: null })
      .execute();
    return true;
  });
  if (!taken) return 'wait';
  try {
    await mailer.send(verificationMail(user.email, user.name, oneTimeLink(config, VERIFY_PATH, token)));
  } catch (error) {
    // Not sent: the link goes, so asking again is not made to wait.
    await db.deleteFrom('email_verifications').where('token_hash', '=', tokenHash).execute();
    throw error;
  }
  return 'sent';
}

/**
 * Uses the token once: the account's address is verified if it is still the one the link went to.
 * Returns the account and its address, or undefined (unknown, used, expired, or the address changed).
 */
export async function confirmEmailVerification(db: Database, token: string, now = Date.now()): Promise<{ userId: number; email: string } | undefined> {
  return db.transaction().execute(async (trx) => {
    // Taken by a conditional update: two submissions of one link cannot both pass.
    const taken = await trx
      .updateTable('email_verifications')
      .set({ used_at: now })
      .where('token_hash', '=', hashToken(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['user_id', 'email'])
      .executeTakeFirst();
    if (!taken) return undefined;
    const verified = await trx
      .updateTable('users')
      .set({ email_verified_at: now })
      .where('id', '=', taken.user_id)
      .where((eb) => eb(eb.fn('lower', ['email']), '=', taken.email))
      .returning(['id', 'email'])
      .executeTakeFirst();
    if (!verified) return undefined;
    // The account's other links are spent too.
    await trx.updateTable('email_verifications').set({ used_at: now }).where('user_id', '=', taken.user_id).where('used_at', 'is', null).execute();
    return { userId: Number(verified.id), email: verified.email };
  });
}
