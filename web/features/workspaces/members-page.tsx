import { roleMay, roleMayNotReasons } from '@common/workspaces/workspace-roles';
import { workspaceMessages } from '@common/workspaces/workspace-messages';
import type { Member, Workspace } from '@common/workspaces/workspace-schemas';
import { useNavigate } from 'react-router';
import { messageOf } from '../../api/client';
import { usePageTitle } from '../../app/use-page-title';
import { Alert } from '../../components/ui/alert';
import { BarLoader } from '../../components/ui/bar-loader';
import { ConfirmButton } from '../../components/ui/confirm-button';
import { toast } from '../../components/ui/toaster';
import { Section } from '../account/components/section';
import { useSession } from '../auth/api/session';
import { useLeaveWorkspace, useMembers } from './api/members';
import { InviteForm } from './components/invite-form';
import { MembersList } from './components/members-list';
import { PendingInvites } from './components/pending-invites';
import { DeleteWorkspaceButton, WorkspaceSettingsForm } from './components/workspace-settings';
import { useCurrentWorkspace } from './current-workspace';

/** /w/{slug}/miembros: who is in the workspace and with which role; invitations; the workspace's settings. */
export function MembersPage() {
  const { workspace } = useCurrentWorkspace();
  const { user } = useSession();
  usePageTitle(workspace ? `Miembros de ${workspace.name}` : 'Miembros');
  if (!workspace || !user) return null;
  if (workspace.personal) {
    return (
      <div className="mx-auto grid max-w-3xl grid-cols-1 gap-4">
        <h1 className="text-2xl font-bold tracking-tight">Miembros</h1>
        <p className="text-slate-300">{workspaceMessages.personalNoMembers}</p>
      </div>
    );
  }
  return <TeamMembers workspace={workspace} userId={user.id} />;
}

function TeamMembers({ workspace, userId }: { workspace: Workspace; userId: number }) {
  const members = useMembers(workspace.slug);
  const manages = roleMay(workspace.role, 'manage');
  const owns = roleMay(workspace.role, 'own');
  return (
    <div className="mx-auto grid max-w-3xl grid-cols-1 gap-8">
      <h1 className="text-2xl font-bold tracking-tight break-words">Miembros de «{workspace.name}»</h1>

      <Section id="miembros-invitar" title="Invitar" description="La invitación caduca en 7 días. Quien la reciba entra con el rol que elijas.">
        {manages ? <InviteForm workspace={workspace} /> : <p className="text-sm text-slate-300">{roleMayNotReasons.manage}</p>}
      </Section>

      <Section id="miembros-lista" title="Miembros">
        {!manages && <p className="mb-2 text-sm text-slate-400">{roleMayNotReasons.manage}</p>}
        {members.isPending && <BarLoader label="Cargando miembros" />}
        {members.isError && <Alert>{messageOf(members.error)}</Alert>}
        {members.data && <MembersList workspace={workspace} members={members.data} callerId={userId} />}
      </Section>

      {manages && (
        <Section id="miembros-invitaciones" title="Invitaciones pendientes">
          <PendingInvites workspace={workspace} />
        </Section>
      )}

      <Section id="miembros-ajustes" title="Ajustes del espacio" description={owns ? undefined : roleMayNotReasons.own}>
        {owns && (
          <div className="grid gap-6">
            <WorkspaceSettingsForm workspace={workspace} />
            <div className="grid gap-2 border-t border-slate-800 pt-6">
              <h3 className="font-semibold">Eliminar el espacio</h3>
              <p className="text-sm text-slate-300">Sus enlaces dejan de funcionar al momento, para todos. No se puede deshacer.</p>
              <div>
                <DeleteWorkspaceButton workspace={workspace} />
              </div>
            </div>
          </div>
        )}
      </Section>

      {members.data && <LeaveSection workspace={workspace} members={members.data} userId={userId} />}
    </div>
  );
}

/** «Dejar el espacio», asked first; the last owner may not (the reason says what to do instead). */
function LeaveSection({ workspace, members, userId }: { workspace: Workspace; members: Member[]; userId: number }) {
  const navigate = useNavigate();
  const leave = useLeaveWorkspace();
  const owners = members.filter((member) => member.role === 'owner').length;
  const lastOwner = workspace.role === 'owner' && owners <= 1;
  return (
    <Section id="miembros-dejar" title="Dejar el espacio">
      <div className="grid gap-3">
        {lastOwner && (
          <p id="leave-reason" className="text-sm text-slate-300">
            {workspaceMessages.lastOwner}
          </p>
        )}
        <div>
          <ConfirmButton
            disabled={lastOwner}
            aria-describedby={lastOwner ? 'leave-reason' : undefined}
            loading={leave.isPending}
            title={`¿Dejar «${workspace.name}»?`}
            description="Dejarás de ver sus enlaces. Los que creaste se quedan en el espacio. Para volver, alguien tendrá que invitarte."
            confirmLabel="Dejar el espacio"
            onConfirm={() =>
              leave.mutate(
                { slug: workspace.slug, userId },
                {
                  onSuccess: () => {
                    navigate('/dashboard', { replace: true });
                    toast(`Has dejado «${workspace.name}».`, 'success');
                  },
                  onError: (error) => toast(`No has dejado el espacio. ${messageOf(error)}`),
                },
              )
            }
          >
            Dejar el espacio
          </ConfirmButton>
        </div>
      </div>
    </Section>
  );
}
