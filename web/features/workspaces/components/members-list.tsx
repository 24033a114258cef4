import { roleLabels, roleMay, roleMayAssign, roleMayNotReasons, type WorkspaceRole } from '@common/workspaces/workspace-roles';
import { workspaceMessages } from '@common/workspaces/workspace-messages';
import type { Member, Workspace } from '@common/workspaces/workspace-schemas';
import { messageOf } from '../../../api/client';
import { Avatar, AvatarFallback, AvatarImage, initialsOf } from '../../../components/ui/avatar';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { toast } from '../../../components/ui/toaster';
import { formatDateTime } from '../../../lib/format';
import { useChangeMemberRole, useRemoveMember } from '../api/members';
import { RoleSelect } from './role-select';

/**
 * Why the caller may not change or remove this member, or null when they may. An admin may not
 * touch an owner, nobody changes their own role here (leaving is below), a reader or editor
 * manages nobody.
 */
export function memberLockReason(callerRole: WorkspaceRole, callerId: number, member: Member): string | null {
  if (member.user.id === callerId) return workspaceMessages.ownRole;
  if (!roleMay(callerRole, 'manage')) return roleMayNotReasons.manage;
  if (!roleMayAssign(callerRole, member.role)) return roleMayNotReasons.own;
  return null;
}

type MembersListProps = { workspace: Workspace; members: Member[]; callerId: number };

/** The members: picture, name, e-mail, role (a select for whoever may change it), joining date, «Quitar». */
export function MembersList({ workspace, members, callerId }: MembersListProps) {
  const changeRole = useChangeMemberRole();
  const removal = useRemoveMember();
  return (
    <ul className="divide-y divide-slate-800">
      {members.map((member) => {
        const { user } = member;
        const lock = memberLockReason(workspace.role, callerId, member);
        const reasonId = `member-${user.id}-reason`;
        const isMe = user.id === callerId;
        return (
          <li key={user.id} className="grid gap-3 py-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center">
            <div className="flex min-w-0 items-center gap-3">
              <Avatar>
                <AvatarImage src={user.profileImage} alt="" />
                <AvatarFallback>{initialsOf(user.name)}</AvatarFallback>
              </Avatar>
              <div className="min-w-0">
                <p className="truncate font-medium">
                  {user.name}
                  {isMe && <span className="ml-2 text-xs text-slate-400">(tú)</span>}
                </p>
                <p className="truncate text-sm text-slate-300">{user.email}</p>
                <p className="text-xs text-slate-400">
                  Miembro desde <time dateTime={member.joinedAt}>{formatDateTime(member.joinedAt)}</time>
                </p>
              </div>
            </div>
            <div className="flex flex-wrap items-center gap-2 sm:justify-end">
              <RoleSelect
                aria-label={`Rol de ${user.name}`}
                aria-describedby={lock ? reasonId : undefined}
                callerRole={workspace.role}
                current={member.role}
                value={member.role}
                disabled={lock !== null || (changeRole.isPending && changeRole.variables?.userId === user.id)}
                onChange={(event) => {
                  const role = event.target.value as WorkspaceRole;
                  changeRole.mutate(
                    { slug: workspace.slug, userId: user.id, role },
                    {
                      onSuccess: () => toast(`${user.name} ahora es ${roleLabels[role]}.`, 'success'),
                      onError: (error) => toast(`No se cambió el rol de ${user.name}. ${messageOf(error)}`),
                    },
                  );
                }}
              />
              {lock === null && (
                <ConfirmButton
                  size="sm"
                  aria-label={`Quitar a ${user.name}`}
                  loading={removal.isPending && removal.variables?.userId === user.id}
                  title={`¿Quitar a ${user.name} del espacio?`}
                  description={`${user.name} dejará de ver y cambiar los enlaces de «${workspace.name}». Los enlaces que creó se quedan en el espacio. Para que vuelva, habrá que invitarle de nuevo.`}
                  confirmLabel="Quitar"
                  onConfirm={() =>
                    removal.mutate(
                      { slug: workspace.slug, userId: user.id },
                      {
                        onSuccess: () => toast(`${user.name} ya no es miembro de «${workspace.name}».`, 'success'),
                        onError: (error) => toast(`No se quitó a ${user.name}. ${messageOf(error)}`),
                      },
                    )
                  }
                >
                  Quitar
                </ConfirmButton>
              )}
              {/* The reason shows only where the caller manages others; a reader hears it once, above the list. */}
              {lock && !isMe && roleMay(workspace.role, 'manage') && (
                <p id={reasonId} className="w-full text-xs text-slate-400 sm:text-right">
                  {lock}
                </p>
              )}
              {lock && (isMe || !roleMay(workspace.role, 'manage')) && (
                <span id={reasonId} className="sr-only">
                  {lock}
                </span>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
