import { emailChangeTaken, VERIFY_LINK_HOURS } from '@common/account/account-messages';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { hashToken } from '../auth/sessions';
import { AppError } from '../http/app-error';
import type { Mailer, MailMessage } from '../mail/mailer';
import { verificationMail } from '../mail/verification-mail';
import { newOneTimeToken, oneTimeLink } from './one-time-link';
import { spendResetLinks } from './password-reset';

// Proving an address: a one-time link (one-time-link.ts, as password recovery's) mailed to it, valid
// a day, once. Each link (a row of email_verifications) names the address it went to. A link to the
// account's current address marks it verified (at sign-up, and 'Reenviar' on /cuenta); a link to
// another address is a change of address waiting for it (email-change.ts): using it moves the
// account there, verified. When the account's address changes, every link it had is spent, so a
// link proves only the address it was sent to. ADMIN_EMAILS acts only on verified addresses
// (admin/admin-emails.ts), and so do invitations (workspaces/invites.ts).

export const VERIFY_PATH = '/auth/verificar';
const VERIFY_LIFETIME_MS = VERIFY_LINK_HOURS * 60 * 60 * 1000;
/** One mail a minute per account and address: the buttons cannot be used to flood a mailbox. */
export const VERIFY_RESEND_MS = 60 * 1000;

export type SendResult = 'sent' | 'verified' | 'wait';

/**
 * Stores a new link for `email` and mails what `compose` makes of it; undefined (nothing stored or
 * sent) when one went to that address within the minute. A mail that fails takes its link away.
 */
export async function mailAddressLink(
  db: Database,
  config: Pick<Config, 'publicBaseUrl'>,
  mailer: Mailer,
  userId: number,
  email: string,
  compose: (link: string) => MailMessage,
  now = Date.now(),
): Promise<'sent' | 'wait'> {
  const address = email.toLowerCase();
  const { token, tokenHash } = newOneTimeToken();
  const stored = await db.transaction().execute(async (trx) => {
    const recent = await trx
      .selectFrom('email_verifications')
      .select('token_hash')
      .where('user_id', '=', userId)
      .where('email', '=', address)
      .where('created_at', '>', now - VERIFY_RESEND_MS)
      .executeTakeFirst();
    if (recent) return false;
    // Expired links of anyone go while we are here, as password recovery's do.
    await trx.deleteFrom('email_verifications').where('expires_at', '<', now).execute();
    await trx
      .insertInto('email_verifications')
      .values({ token_hash: tokenHash, user_id: userId, email: address, created_at: now, expires_at: now + VERIFY_LIFETIME_MS, used_at: null })
      .execute();
    return true;
  });
  if (!stored) return 'wait';
  try {
    await mailer.send(compose(oneTimeLink(config, VERIFY_PATH, token)));
  } catch (error) {
    // Not sent: the link goes, so asking again is not made to wait.
    await db.deleteFrom('email_verifications').where('token_hash', '=', tokenHash).execute();
    throw error;
  }
  return 'sent';
}

/** Mails a verification link to the user's current address, unless it is verified or one went out within the minute. */
export async function sendVerificationMail(db: Database, config: Config, mailer: Mailer, userId: number, now = Date.now()): Promise<SendResult> {
  const user = await db.selectFrom('users').select(['email', 'name', 'email_verified_at']).where('id', '=', userId).executeTakeFirstOrThrow();
  if (user.email_verified_at !== null) return 'verified';
  return mailAddressLink(db, config, mailer, userId, user.email, (link) => verificationMail(user.email, user.name, link), now);
}

/** Whether an unused, unexpired link to the account's current address is out (the page then offers 'Reenviar'). */
export async function verificationLinkOut(db: Database, userId: number, email: string, now = Date.now()): Promise<boolean> {
  const row = await db
    .selectFrom('email_verifications')
    .select('token_hash')
    .where('user_id', '=', userId)
    .where('email', '=', email.toLowerCase())
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/** Every link of the account is spent: its address changed, so none proves anything now. */
export async function spendAddressLinks(db: Database, userId: number, now = Date.now()): Promise<void> {
  await db.updateTable('email_verifications').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/**
 * Uses the token once. A link to the account's current address verifies it; a link to another
 * address (a change waiting for it) moves the account there, verified, unless another account
 * took that address meanwhile (409, and the link stays usable). Returns the account, its address
 * now and whether it changed, or undefined (unknown, used or expired).
 */
export async function confirmEmailVerification(
  db: Database,
  token: string,
  now = Date.now(),
): Promise<{ userId: number; email: string; changed: boolean } | undefined> {
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
    const userId = Number(taken.user_id);
    const user = await trx.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow();
    const changed = user.email.toLowerCase() !== taken.email;
    if (changed) {
      const holder = await trx
        .selectFrom('users')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', taken.email))
        .executeTakeFirst();
      // Thrown inside the transaction: the link is not spent, and can be used if the address frees up.
      if (holder) throw new AppError('conflict', emailChangeTaken(taken.email, user.email));
      // A reset link mailed to the old address must not outlive the change either.
      await spendResetLinks(trx, userId, now);
    }
    const verified = await trx
      .updateTable('users')
      .set(changed ? { email: taken.email, email_verified_at: now } : { email_verified_at: now })
      .where('id', '=', userId)
      .returning(['id', 'email'])
      .executeTakeFirstOrThrow();
    // With a change every other link goes (those to the old address prove nothing now); without
    // one, the other links to this address (a change waiting for its link stays).
    if (changed) await spendAddressLinks(trx, userId, now);
    else await trx.updateTable('email_verifications').set({ used_at: now }).where('user_id', '=', userId).where('email', '=', taken.email).where('used_at', 'is', null).execute();
    return { userId, email: verified.email, changed };
  });
}
