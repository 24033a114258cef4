import { INVITE_VALID_DAYS, workspaceMessages as m } from '@common/workspaces/workspace-messages';
import type { WorkspaceRole } from '@common/workspaces/workspace-roles';
import type { Invite, InvitePreview } from '@common/workspaces/workspace-schemas';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { WorkspaceInvitesTable } from '../db/schema';
import type { Selectable } from 'kysely';
import { isConfirmedEmail } from '../account/confirmed-email';
import { newOneTimeToken } from '../account/one-time-link';
import { hashToken } from '../auth/sessions';
import { AppError } from '../http/app-error';
import { recordActivity } from './activity';
import type { CallerWorkspace } from './workspace-access';

// Invitations into a workspace: a random secret (256 bits) in the link the addressee opens, of which
// only the SHA-256 is stored; valid INVITE_VALID_DAYS, once, for the address it names. Accepting
// it signs in or signs up first: when sign-up is by invitation only, it lets its addressee through
// (server/admin/signup-policy.ts). When mail can prove addresses (SMTP_URL), only an account whose
// address is the invitation's AND confirmed accepts it: a leaked link is no use to whoever signs
// up with someone else's address. Without mail nothing can be confirmed, and the address alone
// decides (docs/workspaces.md says why).

/** The web app's page that shows and accepts an invitation. */
export const INVITE_PAGE = '/invitacion';
const INVITE_LIFETIME_MS = INVITE_VALID_DAYS * 24 * 60 * 60 * 1000;

type InviteRow = Selectable<WorkspaceInvitesTable>;

export const inviteUrl = (config: Pick<Config, 'publicBaseUrl'>, secret: string) =>
  new URL(`${INVITE_PAGE.slice(1)}/${encodeURIComponent(secret)}`, `${config.publicBaseUrl}/`).toString();

export const inviteOf = (row: InviteRow, url?: string): Invite => ({
  id: Number(row.id),
  email: row.email,
  role: row.role,
  ...(url ? { url } : {}),
  expiresAt: new Date(Number(row.expires_at)).toISOString(),
  createdAt: new Date(Number(row.created_at)).toISOString(),
});

/** A new invitation (run in a transaction with its activity entry); the secret is returned this once. */
export async function insertInvite(
  db: Database,
  invite: { workspaceId: number; email: string; role: WorkspaceRole; createdBy: number },
  now = Date.now(),
): Promise<{ row: InviteRow; secret: string }> {
  const { token, tokenHash } = newOneTimeToken();
  const row = await db
    .insertInto('workspace_invites')
    .values({
      workspace_id: invite.workspaceId,
      email: invite.email.toLowerCase(),
      role: invite.role,
      token_hash: tokenHash,
      created_by: invite.createdBy,
      created_at: now,
      expires_at: now + INVITE_LIFETIME_MS,
      accepted_at: null,
      accepted_by: null,
      revoked_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, secret: token };
}

/** Invitations not yet accepted, revoked or expired. */
export function pendingInvites(db: Database, workspaceId: number, now = Date.now()) {
  return db
    .selectFrom('workspace_invites')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
}

function inviteBySecret(db: Database, secret: string) {
  return db
    .selectFrom('workspace_invites')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_invites.workspace_id')
    .leftJoin('users as inviter', 'inviter.id', 'workspace_invites.created_by')
    .selectAll('workspace_invites')
    .select(['workspaces.name as workspace_name', 'workspaces.slug as workspace_slug', 'inviter.name as inviter_name'])
    .where('workspace_invites.token_hash', '=', hashToken(secret))
    .executeTakeFirst();
}

type FoundInvite = NonNullable<Awaited<ReturnType<typeof inviteBySecret>>>;

/** The invitation a secret names while it can still be accepted: 404 unknown, revoked or expired; 409 used. */
async function usableInvite(db: Database, secret: string, now: number): Promise<FoundInvite> {
  const row = await inviteBySecret(db, secret);
  if (!row || row.revoked_at !== null) throw new AppError('not_found', m.inviteNotFound);
  if (row.accepted_at !== null) throw new AppError('conflict', m.inviteUsed);
  if (Number(row.expires_at) <= now) throw new AppError('not_found', m.inviteNotFound);
  return row;
}

/** What the acceptance page shows before the addressee accepts (GET /api/invites/:token). */
export async function previewInvite(db: Database, secret: string, now = Date.now()): Promise<InvitePreview> {
  const row = await usableInvite(db, secret, now);
  return {
    workspace: { name: row.workspace_name, slug: row.workspace_slug },
    email: row.email,
    role: row.role,
    invitedBy: row.inviter_name,
    expiresAt: new Date(Number(row.expires_at)).toISOString(),
  };
}

/** For a sign-up carrying an invitation: refused (as acceptance would be) unless it is usable by `email`. */
export async function checkInviteFor(db: Database, secret: string, email: string, now = Date.now()): Promise<void> {
  const row = await usableInvite(db, secret, now);
  if (row.email !== email.toLowerCase()) throw new AppError('forbidden', m.inviteOtherEmail);
}

/**
 * The user joins the invitation's workspace with its role; run in a transaction. `confirmedOnly`
 * (mail can prove addresses): refused until the account's address is confirmed. Taken by a
 * conditional update, so one invitation cannot be accepted twice, even at the same moment.
 */
export async function acceptInvite(
  trx: Database,
  secret: string,
  user: { id: number; name: string; email: string },
  { confirmedOnly }: { confirmedOnly: boolean },
  now = Date.now(),
): Promise<CallerWorkspace> {
  const row = await usableInvite(trx, secret, now);
  if (row.email !== user.email.toLowerCase()) throw new AppError('forbidden', m.inviteOtherEmail);
  if (confirmedOnly && !(await isConfirmedEmail(trx, user.id))) throw new AppError('forbidden', m.inviteConfirmEmail);
  const member = await trx
    .selectFrom('workspace_members')
    .select('role')
    .where('workspace_id', '=', row.workspace_id)
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (member) throw new AppError('conflict', m.alreadyMember);
  const taken = await trx
    .updateTable('workspace_invites')
    .set({ accepted_at: now, accepted_by: user.id })
    .where('id', '=', row.id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) throw new AppError('conflict', m.inviteUsed);
  await trx
    .insertInto('workspace_members')
    .values({ workspace_id: row.workspace_id, user_id: user.id, role: row.role, joined_at: now })
    .onConflict((conflict) => conflict.columns(['workspace_id', 'user_id']).doNothing())
    .execute();
  await recordActivity(trx, { workspaceId: row.workspace_id, actor: user, action: 'member.joined', target: user.name, detail: row.role }, now);
  return { id: Number(row.workspace_id), slug: row.workspace_slug, name: row.workspace_name, personal: false, role: row.role };
}
