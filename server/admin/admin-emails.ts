import type { Database } from '../db/database';
import { recordAudit } from './audit-log';

// ADMIN_EMAILS grants admin only to a proved address: the account's e-mail must be verified (it
// confirmed a link sent there: server/account/email-verification.ts). An address nobody proved
// grants nothing, so signing up first with a listed address, or moving an account to one, is not
// enough. It grants once per account and address: admin_grant_email remembers the address it
// promoted for (or under which an admin demoted the account), so a demotion made in the app
// stands across restarts. Without SMTP_URL no address can be verified: `npm run corto -- admin`
// is then the only way in.

/** Who the audit log names for ADMIN_EMAILS' promotions (no admin did them). */
export const ADMIN_EMAILS_ACTOR = { id: 0, email: 'ADMIN_EMAILS (email verificado)' } as const;
/** And for the shell's `corto admin`. */
export const CLI_ACTOR = { id: 0, email: 'npm run corto -- admin' } as const;

/**
 * Promotes the accounts whose verified address is listed and has not granted admin to them before
 * (at start; and for one account, `userId`, when it verifies its address). Returns their ids.
 */
export async function promoteAdminEmails(db: Database, emails: string[], userId?: number): Promise<number[]> {
  if (emails.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('users')
      .select(['id', 'email', 'role'])
      .where((eb) => eb(eb.fn('lower', ['email']), 'in', emails))
      .where('email_verified_at', 'is not', null)
      .where((eb) => eb.or([eb('admin_grant_email', 'is', null), eb('admin_grant_email', '!=', eb.fn<string>('lower', ['email']))]));
    if (userId !== undefined) query = query.where('id', '=', userId);
    const granted = await query.execute();
    for (const user of granted) {
      // An account already admin (the shell made it so) has its grant spent too: a later demotion stands.
      await trx.updateTable('users').set({ role: 'admin', admin_grant_email: user.email.toLowerCase() }).where('id', '=', user.id).execute();
      if (user.role !== 'admin') await recordAudit(trx, ADMIN_EMAILS_ACTOR, 'user.role', user.email, 'admin');
    }
    return granted.filter((user) => user.role !== 'admin').map((user) => Number(user.id));
  });
}
