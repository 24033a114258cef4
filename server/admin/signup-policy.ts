import { createHash, randomBytes } from 'node:crypto';
import { adminMessages as m } from '@common/admin/admin-messages';
import type { SignupMode } from '@common/admin/admin-schemas';
import { errorMessages } from '@common/messages';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { AppError } from '../http/app-error';
import { checkInviteFor } from '../workspaces/invites';

// Who may create an account: everyone (open), only holders of an invitation (invite), or nobody
// (closed). SIGNUP in the environment wins over the setting stored from /admin/ajustes.

export const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export async function storedSignupMode(db: Database): Promise<SignupMode> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'signup').executeTakeFirst();
  return row?.value === 'invite' || row?.value === 'closed' ? row.value : 'open';
}

export async function signupMode(db: Database, config: Pick<Config, 'signup'>): Promise<SignupMode> {
  return config.signup ?? (await storedSignupMode(db));
}

export async function storeSignupMode(db: Database, mode: SignupMode): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key: 'signup', value: mode })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: mode }))
    .execute();
}

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

/** A new single-use invitation; the code is returned this once, only its hash is kept. */
export async function createInvite(db: Database, createdBy: number, email: string | undefined) {
  const code = randomBytes(18).toString('base64url');
  const now = Date.now();
  const expiresAt = now + INVITE_LIFETIME_MS;
  await db
    .insertInto('invites')
    .values({ code_hash: hashCode(code), email: email?.toLowerCase() ?? null, created_by: createdBy, created_at: now, expires_at: expiresAt })
    .execute();
  return { code, expiresAt };
}

/** What an invitation link is, for the register form: usable or not, and the e-mail it is for. */
export async function describeInvite(db: Database, code: string) {
  const row = await db.selectFrom('invites').selectAll().where('code_hash', '=', hashCode(code)).executeTakeFirst();
  if (!row || row.used_at !== null || Number(row.expires_at) <= Date.now()) return { valid: false, email: null, expiresAt: null };
  return { valid: true, email: row.email, expiresAt: new Date(Number(row.expires_at)).toISOString() };
}

const inviteError = (message: string) => new AppError('validation', errorMessages.validation, { invite: [message] });
const workspaceInviteError = (message: string) => new AppError('validation', errorMessages.validation, { workspaceInvite: [message] });

/**
 * Checks a sign-up against the mode: closed -> 403; invite -> the code must be unused, unexpired
 * and (when bound) for this e-mail, or the sign-up must carry a workspace invitation for this
 * e-mail (server/workspaces/invites.ts), which the route accepts in the account's own transaction.
 * Returns a function that takes the invitation (exactly once: a conditional update, so two
 * sign-ups with one code cannot both pass) and one that gives it back if the account could not be
 * created after all.
 */
export async function checkSignup(db: Database, config: Pick<Config, 'signup'>, email: string, invite: string | undefined, workspaceInvite?: string) {
  const mode = await signupMode(db, config);
  if (mode === 'closed') throw new AppError('forbidden', m.signupClosed);
  // Checked whatever the mode: an account made through it joins the workspace, or is not made.
  if (workspaceInvite) {
    await checkInviteFor(db, workspaceInvite, email).catch((error: unknown) => {
      throw error instanceof AppError ? workspaceInviteError(error.message) : error;
    });
  }
  if (mode === 'open' || (!invite && workspaceInvite)) return { take: async () => {}, giveBack: async () => {} };
  if (!invite) throw inviteError(m.inviteRequired);
  const codeHash = hashCode(invite);
  const row = await db.selectFrom('invites').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
  if (!row || row.used_at !== null || Number(row.expires_at) <= Date.now()) throw inviteError(m.inviteInvalid);
  if (row.email && row.email !== email.toLowerCase()) throw inviteError(m.inviteOtherEmail(row.email));
  return {
    async take() {
      const now = Date.now();
      const result = await db
        .updateTable('invites')
        .set({ used_at: now })
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw inviteError(m.inviteInvalid);
    },
    async giveBack() {
      await db.updateTable('invites').set({ used_at: null }).where('code_hash', '=', codeHash).execute();
    },
  };
}
