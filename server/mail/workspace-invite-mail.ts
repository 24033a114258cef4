import { INVITE_VALID_DAYS } from '@common/workspaces/workspace-messages';
import { roleLabels, type WorkspaceRole } from '@common/workspaces/workspace-roles';
import { linkMail } from './link-mail';
import type { MailMessage } from './mailer';

export interface WorkspaceInviteMail {
  to: string;
  workspaceName: string;
  inviterName: string;
  role: WorkspaceRole;
  url: string;
}

/** The invitation into a workspace, in Spanish, naming the workspace and who invites. */
export function workspaceInviteMail({ to, workspaceName, inviterName, role, url }: WorkspaceInviteMail): MailMessage {
  return linkMail(to, null, url, {
    subject: `${inviterName} te invita a «${workspaceName}» en Corto`,
    intro: [
      `${inviterName} te invita a unirte al espacio de trabajo «${workspaceName}» en Corto, con el rol de ${roleLabels[role].toLowerCase()}.`,
      `Para aceptar, abre este enlace en los próximos ${INVITE_VALID_DAYS} días (si aún no tienes cuenta, podrás crearla con esta dirección):`,
    ],
    button: 'Aceptar la invitación',
    outro: [
      `La invitación es solo para ${to} y sirve una vez.`,
      'Si no esperabas este mensaje, ignóralo: no se creará nada.',
    ],
  });
}
