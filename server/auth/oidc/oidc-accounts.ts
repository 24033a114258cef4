import { NAME_MAX_LENGTH } from '@common/auth/auth-messages';
import type { OidcErrorCode } from '@common/auth/oidc-messages';
import type { Config, OidcConfig } from '../../config';
import type { Database } from '../../db/database';
import { isUniqueViolation } from '../../db/dialect';
import type { UserRow } from '../../db/schema';
import { promoteAdminEmails } from '../../admin/admin-emails';
import { recordAudit } from '../../admin/audit-log';
import { isConfirmedEmail } from '../../account/confirmed-email';
import { findUserByEmail, insertUser } from '../auth.queries';
import { NO_PASSWORD } from '../passwords';

// Which account a provider's user is (docs/accounts.md, "Sign-in with the company's provider"):
// the subject first; at a first sign-in, a password account with the same e-mail when the provider
// says the address is verified; else a new account, unless OIDC_SIGNUP=false.

/** What Corto reads of the provider's claims (ID token and userinfo together). */
export interface ProviderUser {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
  given_name?: unknown;
  family_name?: unknown;
  preferred_username?: unknown;
  groups?: unknown;
}

/** Who the audit log names for OIDC_ADMIN_GROUP's changes (no admin made them). */
export const ADMIN_GROUP_ACTOR = { id: 0, email: 'OIDC_ADMIN_GROUP (proveedor)' } as const;

/** Profile picture of an account the provider made: the initials avatar (a `picture` claim is never fetched). */
export const NO_PICTURE = '';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** A name the sign-up form would accept: no controls, no bidirectional marks, not too long. */
export function accountName(user: ProviderUser, email: string): string {
  const given = [text(user.given_name), text(user.family_name)].join(' ');
  const raw = [text(user.name), given, text(user.preferred_username), email.split('@')[0] ?? ''].find((candidate) => candidate.trim() !== '') ?? '';
  const clean = raw.replace(/[\p{Cc}\p{Bidi_Control}]/gu, ' ').replace(/\s+/g, ' ').trim().slice(0, NAME_MAX_LENGTH).trim();
  return clean || 'Usuario';
}

function groupsOf(user: ProviderUser): string[] {
  if (Array.isArray(user.groups)) return user.groups.filter((group): group is string => typeof group === 'string');
  return typeof user.groups === 'string' ? [user.groups] : [];
}

export type SignInOutcome = { user: UserRow } | { refused: OidcErrorCode };

export async function accountForProviderUser(
  db: Database,
  config: Config,
  oidc: OidcConfig,
  user: ProviderUser,
  retried = false,
): Promise<SignInOutcome> {
  const now = Date.now();
  let identity = await db
    .selectFrom('oidc_identities')
    .selectAll()
    .where('issuer', '=', oidc.issuer)
    .where('sub', '=', user.sub)
    .executeTakeFirst();
  if (!identity) {
    const email = text(user.email).trim();
    if (!email) return { refused: 'no_email' };
    const verified = user.email_verified === true;
    const existing = await findUserByEmail(db, email);
    let userId: number;
    if (existing) {
      // Anyone could write that address at a provider that does not check it.
      if (!verified) return { refused: 'unverified' };
      // Nor anyone at Corto: an account that never confirmed the address (when mail could have
      // confirmed it) may be someone else's squatting it, whose password would then open it too.
      if (config.smtpUrl && !(await isConfirmedEmail(db, existing.id))) return { refused: 'unconfirmed' };
      userId = existing.id;
    } else {
      if (!oidc.signup) return { refused: 'signup' };
      try {
        const created = await insertUser(db, {
          name: accountName(user, email),
          email,
          password_hash: NO_PASSWORD,
          profile_image: NO_PICTURE,
          created_at: now,
          disabled_at: null,
          // The provider proved it: ADMIN_EMAILS may grant admin like for a confirmed link.
          email_verified_at: verified ? now : null,
        });
        userId = created.id;
      } catch (error) {
        // The same e-mail signed up meanwhile: one more look finds it as an existing account.
        if (isUniqueViolation(error) && !retried) return accountForProviderUser(db, config, oidc, user, true);
        throw error;
      }
    }
    try {
      identity = await db
        .insertInto('oidc_identities')
        .values({ issuer: oidc.issuer, sub: user.sub, user_id: userId, created_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      // Two first sign-ins at once: the other one linked it.
      if (isUniqueViolation(error) && !retried) return accountForProviderUser(db, config, oidc, user, true);
      throw error;
    }
    if (verified) await promoteAdminEmails(db, config.adminEmails, userId);
  }
  await db.updateTable('oidc_identities').set({ last_sign_in_at: now }).where('id', '=', identity.id).execute();
  const row = await db.selectFrom('users').selectAll().where('id', '=', identity.user_id).executeTakeFirstOrThrow();
  if (row.disabled_at !== null) return { refused: 'disabled' };
  if (oidc.adminGroup) return { user: await followAdminGroup(db, row, identity.granted_admin === 1, groupsOf(user).includes(oidc.adminGroup)) };
  return { user: row };
}

/**
 * OIDC_ADMIN_GROUP at each sign-in: a member becomes admin; one who left loses what the group gave
 * (an admin made by ADMIN_EMAILS or by another admin stays one).
 */
async function followAdminGroup(db: Database, row: UserRow, grantedByGroup: boolean, member: boolean): Promise<UserRow> {
  if (member && row.role !== 'admin') {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ role: 'admin' }).where('id', '=', row.id).execute();
      await trx.updateTable('oidc_identities').set({ granted_admin: 1 }).where('user_id', '=', row.id).execute();
      await recordAudit(trx, ADMIN_GROUP_ACTOR, 'user.role', row.email, 'admin');
    });
    return { ...row, role: 'admin' };
  }
  if (!member && grantedByGroup) {
    await db.transaction().execute(async (trx) => {
      if (row.role === 'admin') {
        await trx.updateTable('users').set({ role: 'user' }).where('id', '=', row.id).execute();
        await recordAudit(trx, ADMIN_GROUP_ACTOR, 'user.role', row.email, 'user');
      }
      await trx.updateTable('oidc_identities').set({ granted_admin: 0 }).where('user_id', '=', row.id).execute();
    });
    return { ...row, role: 'user' };
  }
  return row;
}
