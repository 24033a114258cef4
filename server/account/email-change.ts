import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { emailChangeMail, emailChangeNoticeMail } from '../mail/email-change-mail';
import type { Mailer } from '../mail/mailer';
import { mailAddressLink } from './email-verification';

// Changing the address when mail can be sent: the new address must be proved before it replaces the
// old. The change waits as a link to the new address (a row of email_verifications whose address is
// not the account's); the account signs in with and shows the old one until the link is used
// (email-verification.ts' confirmEmailVerification makes the move), the old address is told, and
// one change waits at a time. Without SMTP_URL nothing can be proved: the address changes at once,
// unverified (account.routes.ts).

/** The page the old address's notice points to. */
const ACCOUNT_PAGE = '/cuenta';

/** Unused, unexpired links of the account to an address that is not its own: the change waiting. */
function pendingLinks(db: Database, userId: number, now: number) {
  return db
    .selectFrom('email_verifications')
    .innerJoin('users', 'users.id', 'email_verifications.user_id')
    .where('email_verifications.user_id', '=', userId)
    .where('email_verifications.used_at', 'is', null)
    .where('email_verifications.expires_at', '>', now)
    .where((eb) => eb('email_verifications.email', '!=', eb.fn<string>('lower', ['users.email'])));
}

/** The new address a change waits on, or null. */
export async function pendingEmailOf(db: Database, userId: number, now = Date.now()): Promise<string | null> {
  const row = await pendingLinks(db, userId, now).select('email_verifications.email').orderBy('email_verifications.created_at', 'desc').executeTakeFirst();
  return row?.email ?? null;
}

/** Cancels the change waiting (its links are spent). Whether there was one. */
export async function cancelEmailChange(db: Database, userId: number, now = Date.now()): Promise<boolean> {
  const waiting = await pendingLinks(db, userId, now).select('email_verifications.token_hash').execute();
  if (waiting.length === 0) return false;
  await db.updateTable('email_verifications').set({ used_at: now }).where('token_hash', 'in', waiting.map((row) => row.token_hash)).execute();
  return true;
}

/**
 * Asks for the move to `newEmail` (a new request replaces one waiting for another address): the link
 * goes to the new address, a notice to the old. 'wait' when a link went there within the minute.
 * The notice is a courtesy: its failure is logged, not answered.
 */
export async function requestEmailChange(
  db: Database,
  config: Config,
  mailer: Mailer,
  user: { id: number; name: string; email: string },
  newEmail: string,
  log: FastifyBaseLogger,
  now = Date.now(),
): Promise<'sent' | 'wait'> {
  const address = newEmail.toLowerCase();
  const result = await mailAddressLink(db, config, mailer, user.id, address, (link) => emailChangeMail(address, user.name, user.email, link), now);
  if (result === 'wait') return result;
  const others = await pendingLinks(db, user.id, now).where('email_verifications.email', '!=', address).select('email_verifications.token_hash').execute();
  if (others.length > 0) await db.updateTable('email_verifications').set({ used_at: now }).where('token_hash', 'in', others.map((row) => row.token_hash)).execute();
  const accountPage = new URL(ACCOUNT_PAGE.slice(1), `${config.publicBaseUrl}/`).toString();
  await mailer.send(emailChangeNoticeMail(user.email, user.name, address, accountPage)).catch((error: unknown) => {
    log.error({ err: error }, 'could not tell the old address of an e-mail change');
  });
  return 'sent';
}

/** 'Reenviar' for the change waiting: another link to the new address (no second notice). Undefined when none waits. */
export async function resendEmailChange(
  db: Database,
  config: Config,
  mailer: Mailer,
  user: { id: number; name: string; email: string },
  now = Date.now(),
): Promise<{ result: 'sent' | 'wait'; email: string } | undefined> {
  const pending = await pendingEmailOf(db, user.id, now);
  if (pending === null) return undefined;
  const result = await mailAddressLink(db, config, mailer, user.id, pending, (link) => emailChangeMail(pending, user.name, user.email, link), now);
  return { result, email: pending };
}
