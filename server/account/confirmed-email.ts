import type { Database } from '../db/database';

// The one question everything that grants rights by an address asks (ADMIN_EMAILS, invitations,
// a sign-in from the company's provider joining a password account): has the account proved it
// reads that mailbox? An address is confirmed when its account opened a link mailed there
// (email-verification.ts); a new address never inherits the old one's confirmation.

/** Whether the account's current address is confirmed. */
export async function isConfirmedEmail(db: Database, userId: number): Promise<boolean> {
  const row = await db.selectFrom('users').select('email_verified_at').where('id', '=', userId).executeTakeFirst();
  return row?.email_verified_at != null;
}

/**
 * The account whose current address is `email` (any case) and confirmed; undefined when no
 * account has it or its holder never proved it (so whoever signed up first with someone else's
 * address is never joined to, nor granted anything for, that address).
 */
export async function findAccountByConfirmedEmail(db: Database, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role', 'disabled_at'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .where('email_verified_at', 'is not', null)
    .executeTakeFirst();
}
