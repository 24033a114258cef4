import type { Database } from '../db/database';
import type { SessionUser } from '../auth/sessions';

/** What an admin did, in the log's words (shown as they are in /admin/registro). */
export type AuditAction =
  | 'user.disable'
  | 'user.enable'
  | 'user.role'
  | 'user.delete'
  | 'link.disable'
  | 'link.enable'
  | 'domain.disable'
  | 'domain.enable'
  | 'workspace.delete'
  | 'settings.signup'
  | 'settings.blocked_domains'
  | 'invite.create'
  | 'report.resolve'
  | 'report.dismiss'
  | 'report.reopen';

export async function recordAudit(
  db: Database,
  admin: Pick<SessionUser, 'id' | 'email'>,
  action: AuditAction,
  target: string,
  detail: string | null = null,
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({ admin_id: admin.id, admin_email: admin.email, action, target, detail, created_at: Date.now() })
    .execute();
}

export async function auditPage(db: Database, cursor: number | undefined, limit: number) {
  let query = db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(limit + 1);
  if (cursor) query = query.where('id', '<', cursor);
  return query.execute();
}
