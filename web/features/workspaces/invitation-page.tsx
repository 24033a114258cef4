import { roleLabels } from '@common/workspaces/workspace-roles';
import { workspaceMessages } from '@common/workspaces/workspace-messages';
import type { InvitePreview } from '@common/workspaces/workspace-schemas';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, messageOf } from '../../api/client';
import { usePageTitle } from '../../app/use-page-title';
import { FormAlert } from '../../components/form/form-alert';
import { BarLoader } from '../../components/ui/bar-loader';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/toaster';
import { formatDateTime } from '../../lib/format';
import { useSession } from '../auth/api/session';
import { NEXT_PARAM } from '../auth/auth-paths';
import { useAcceptInvite, useInvitePreview } from './api/invites';
import { invitationPath, workspaceHomePath } from './workspace-path';

/** Why an invitation cannot be used, said plainly: expired or revoked, used, or for another address. */
function refusalOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 404) return workspaceMessages.inviteNotFound;
    return error.message;
  }
  return messageOf(error);
}

/**
 * /invitacion/{token}: what the invitation offers; signed out, a way to sign in or sign up that
 * comes back here; signed in, «Aceptar invitación», then on to the workspace.
 */
export function InvitationPage() {
  usePageTitle('Invitación');
  const token = useParams().token ?? '';
  const preview = useInvitePreview(token);
  return (
    <div className="mx-auto grid max-w-lg gap-6">
      <h1 className="text-center text-3xl font-bold tracking-tight">Invitación</h1>
      {preview.isPending && <BarLoader label="Cargando la invitación" />}
      {preview.isError && (
        <Card className="grid gap-4 p-5 text-center sm:p-6">
          <p role="alert" className="text-red-200">
            {refusalOf(preview.error)}
          </p>
          <p className="text-sm text-slate-300">Pide otra invitación a quien te invitó.</p>
          <Link to="/dashboard" className={buttonVariants({ variant: 'outline' })}>
            Ir a mis links
          </Link>
        </Card>
      )}
      {preview.data && <InvitationCard token={token} invite={preview.data} />}
    </div>
  );
}

function InvitationCard({ token, invite }: { token: string; invite: InvitePreview }) {
  const navigate = useNavigate();
  const { user, isLoading } = useSession();
  const accept = useAcceptInvite();
  const back = invitationPath(token);
  const otherAddress = user && user.email.toLowerCase() !== invite.email.toLowerCase();
  return (
    <Card className="grid gap-5 p-5 sm:p-6">
      <p className="text-lg">
        {invite.invitedBy ? `${invite.invitedBy} te invita` : 'Te invitan'} a unirte a <strong className="break-words text-white">«{invite.workspace.name}»</strong> como{' '}
        <strong className="text-white">{roleLabels[invite.role]}</strong>.
      </p>
      <dl className="grid gap-1 text-sm text-slate-300">
        <div>
          <dt className="inline">Para: </dt>
          <dd className="inline break-all">{invite.email}</dd>
        </div>
        <div>
          <dt className="inline">Caduca el </dt>
          <dd className="inline">
            <time dateTime={invite.expiresAt}>{formatDateTime(invite.expiresAt)}</time>
          </dd>
        </div>
      </dl>
      {isLoading ? (
        <BarLoader label="Comprobando la sesión" />
      ) : !user ? (
        <div className="grid gap-3">
          <p className="text-sm text-slate-300">Para aceptarla, entra con la cuenta de {invite.email} o créala; luego volverás aquí.</p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Link to={`/auth?${new URLSearchParams({ [NEXT_PARAM]: back })}`} className={buttonVariants()}>
              Inicia sesión
            </Link>
            <Link to={`/auth?${new URLSearchParams({ tab: 'register', invite: token, [NEXT_PARAM]: back })}`} className={buttonVariants({ variant: 'outline' })}>
              Crea tu cuenta
            </Link>
          </div>
        </div>
      ) : (
        <div className="grid gap-3">
          {otherAddress && (
            <p className="text-sm text-amber-200">
              Has entrado como {user.email}. {workspaceMessages.inviteOtherEmail}
            </p>
          )}
          <FormAlert message={accept.isError ? refusalOf(accept.error) : undefined} />
          {accept.isError && refusalOf(accept.error) === workspaceMessages.inviteConfirmEmail && (
            <Link to="/cuenta#cuenta-email" className="text-sm text-teal-300 underline-offset-4 hover:underline">
              Confirmar mi email en Mi cuenta
            </Link>
          )}
          <div>
            <Button
              loading={accept.isPending}
              onClick={() =>
                accept.mutate(token, {
                  onSuccess: (workspace) => {
                    toast(`Ya eres miembro de «${workspace.name}».`, 'success');
                    navigate(workspaceHomePath(workspace.slug), { replace: true });
                  },
                })
              }
            >
              Aceptar invitación
            </Button>
          </div>
        </div>
      )}
    </Card>
  );
}
