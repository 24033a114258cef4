import { roleLabels, workspaceRoles, type WorkspaceRole } from '@common/workspaces/workspace-roles';
import type { ActivityEntry } from '@common/workspaces/workspace-schemas';

// The activity page's sentences: one per action, in Spanish, with who did it first
// («Ana creó el enlace /promo», «Luis cambió el rol de marta@ejemplo.com a Editor»).

const isRole = (value: string | null): value is WorkspaceRole => value !== null && (workspaceRoles as readonly string[]).includes(value);

/**
 * The role an entry ends with, as the page names it: the detail is a role («editor») or a change of
 * role («viewer → editor»); anything else (an older entry's wording) as it came.
 */
function roleName(detail: string | null): string | null {
  const role = detail?.split('→').at(-1)?.trim();
  if (!role) return null;
  return isRole(role) ? roleLabels[role] : role;
}

/** A link's address as the page shows it: «/promo» for a code or alias, a full address without its scheme. */
function shownAddress(target: string): string {
  if (/^https?:\/\//i.test(target)) return target.replace(/^https?:\/\//i, '');
  return target.startsWith('/') ? target : `/${target}`;
}

/** A created or deleted link's title, when the entry keeps it. */
const titled = (entry: ActivityEntry) => (entry.detail ? ` («${entry.detail}»)` : '');

function importedCount(entry: ActivityEntry): string {
  const count = Number(entry.detail ?? entry.target);
  if (!Number.isSafeInteger(count) || count < 0) return 'importó enlaces';
  return `importó ${new Intl.NumberFormat('es').format(count)} ${count === 1 ? 'enlace' : 'enlaces'}`;
}

/** What the entry says happened, after its actor's name. */
function predicate(entry: ActivityEntry): string {
  const role = entry.action.startsWith('link') ? null : roleName(entry.detail);
  const as = role ? ` como ${role}` : '';
  switch (entry.action) {
    case 'workspace.created':
      return `creó el espacio «${entry.target}»`;
    case 'workspace.renamed':
      // The detail says what changed: «Antes» → «Después», and/or antes → después for the slug.
      return entry.detail ? `cambió el espacio: ${entry.detail}` : `cambió el nombre del espacio a «${entry.target}»`;
    case 'link.created':
      return `creó el enlace ${shownAddress(entry.target)}${titled(entry)}`;
    case 'link.edited':
      return `editó el enlace ${shownAddress(entry.target)}`;
    case 'link.deleted':
      return `eliminó el enlace ${shownAddress(entry.target)}${titled(entry)}`;
    case 'links.imported':
      return importedCount(entry);
    case 'member.joined':
      return `se unió al espacio${as}`;
    case 'member.role_changed':
      return role ? `cambió el rol de ${entry.target} a ${role}` : `cambió el rol de ${entry.target}`;
    case 'member.removed':
      return `quitó a ${entry.target} del espacio`;
    case 'member.left':
      return 'dejó el espacio';
    case 'invite.created':
      return `invitó a ${entry.target}${as}`;
    case 'invite.revoked':
      return `revocó la invitación de ${entry.target}`;
    case 'domain.added':
      return `añadió el dominio ${entry.target}`;
    case 'domain.verified':
      return `verificó el dominio ${entry.target}`;
    case 'domain.deleted':
      return `eliminó el dominio ${entry.target}`;
  }
}

/** The entry as one Spanish sentence, its actor first. */
export function activitySentence(entry: ActivityEntry): string {
  return `${entry.actor.name} ${predicate(entry)}`;
}
