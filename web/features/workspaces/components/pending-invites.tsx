import { roleLabels } from '@common/workspaces/workspace-roles';
import type { Workspace } from '@common/workspaces/workspace-schemas';
import { messageOf } from '../../../api/client';
import { Alert } from '../../../components/ui/alert';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { toast } from '../../../components/ui/toaster';
import { formatDateTime } from '../../../lib/format';
import { useInvites, useRevokeInvite } from '../api/invites';

/** The invitations not yet accepted, each with «Revocar» (after a confirmation). */
export function PendingInvites({ workspace }: { workspace: Workspace }) {
  const invites = useInvites(workspace.slug, true);
  const revoke = useRevokeInvite();
  if (invites.isError) return <Alert>{messageOf(invites.error)}</Alert>;
  if (!invites.data) return null;
  if (invites.data.length === 0) return <p className="text-sm text-slate-400">No hay invitaciones pendientes.</p>;
  return (
    <ul className="divide-y divide-slate-800">
      {invites.data.map((invite) => (
        <li key={invite.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
          <div className="min-w-0">
            <p className="truncate font-medium">{invite.email}</p>
            <p className="text-xs text-slate-400">
              {roleLabels[invite.role]} · caduca el <time dateTime={invite.expiresAt}>{formatDateTime(invite.expiresAt)}</time>
            </p>
          </div>
          <ConfirmButton
            size="sm"
            aria-label={`Revocar la invitación de ${invite.email}`}
            loading={revoke.isPending && revoke.variables?.id === invite.id}
            title={`¿Revocar la invitación de ${invite.email}?`}
            description="Su enlace dejará de funcionar al momento. Si cambias de idea, tendrás que invitarle de nuevo."
            confirmLabel="Revocar"
            onConfirm={() =>
              revoke.mutate(
                { slug: workspace.slug, id: invite.id },
                {
                  onSuccess: () => toast(`Invitación de ${invite.email} revocada.`, 'success'),
                  onError: (error) => toast(`No se revocó la invitación. ${messageOf(error)}`),
                },
              )
            }
          >
            Revocar
          </ConfirmButton>
        </li>
      ))}
    </ul>
  );
}
