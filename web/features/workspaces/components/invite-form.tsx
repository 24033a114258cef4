import { type CreateInviteInput, createInviteSchema, type Invite, type Workspace } from '@common/workspaces/workspace-schemas';
import { roleLabels, type WorkspaceRole } from '@common/workspaces/workspace-roles';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { messageOf } from '../../../api/client';
import { applyServerFields } from '../../../components/form/apply-server-fields';
import { FormAlert } from '../../../components/form/form-alert';
import { FormField } from '../../../components/form/form-field';
import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';
import { formatDateTime } from '../../../lib/format';
import { usePasswordResetAvailable } from '../../auth/api/password-reset-availability';
import { type CreatedInvite, useCreateInvite } from '../api/invites';
import { CopyTextButton } from './copy-text-button';
import { RoleSelect } from './role-select';

type Values = z.input<typeof createInviteSchema>;

/** «Invitar»: an address and a role; then the invitation's address, to copy (and mailed when the server can). */
export function InviteForm({ workspace }: { workspace: Workspace }) {
  const creation = useCreateInvite();
  // The answer says whether it was mailed; failing that, the server mails when it can mail at all
  // (the same SMTP_URL the password reset needs).
  const canMail = usePasswordResetAvailable();
  const [sent, setSent] = useState<CreatedInvite | null>(null);
  const form = useForm<Values, unknown, CreateInviteInput>({
    resolver: zodResolver(createInviteSchema),
    criteriaMode: 'all',
    defaultValues: { email: '', role: 'editor' },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit((input) =>
    creation.mutate(
      { slug: workspace.slug, input },
      {
        onSuccess: (created) => {
          setSent(created);
          form.reset({ email: '', role: input.role });
        },
        onError: (error) => {
          applyServerFields(error, form.setError, ['email', 'role']);
          form.setError('root.server', { message: messageOf(error) });
        },
      },
    ),
  );
  return (
    <div className="grid grid-cols-1 gap-4">
      <form noValidate onSubmit={submit} className="grid grid-cols-1 gap-4 sm:grid-cols-[minmax(0,1fr)_auto_auto] sm:items-start" aria-label="Invitar a una persona">
        <FormField id="invite-email" label="Correo electrónico" type="email" autoComplete="off" placeholder="nombre@ejemplo.com" error={errors.email} {...form.register('email')} />
        <div className="grid gap-2">
          <Label htmlFor="invite-role">Rol</Label>
          <RoleSelect id="invite-role" callerRole={workspace.role} {...form.register('role')} />
        </div>
        <Button type="submit" loading={creation.isPending} className="sm:mt-7">
          Invitar
        </Button>
        <FormAlert message={errors.root?.server?.message} className="sm:col-span-3" />
      </form>
      {sent && <InviteSent invite={sent.invite} mailing={sent.mailed ?? canMail} onDone={() => setSent(null)} />}
    </div>
  );
}

/** What became of the invitation: mailed, or an address the admin copies and sends. */
function InviteSent({ invite, mailing, onDone }: { invite: Invite; mailing: boolean; onDone: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
    ref.current?.focus();
  }, [invite.id]);
  const role = roleLabels[invite.role as WorkspaceRole];
  return (
    <div ref={ref} tabIndex={-1} role="status" className="grid min-w-0 grid-cols-1 gap-3 rounded-lg border border-emerald-400/40 bg-emerald-950/40 p-4 text-sm text-emerald-50 outline-none">
      <p className="font-semibold">
        {mailing ? `Invitación enviada a ${invite.email} como ${role}.` : `Invitación creada para ${invite.email} como ${role}. Copia el enlace y envíaselo.`}
      </p>
      <p className="text-emerald-100/80">
        {mailing ? 'Si no le llega el correo, copia el enlace y envíaselo tú. ' : 'Este servidor no envía correos. '}
        Caduca el <time dateTime={invite.expiresAt}>{formatDateTime(invite.expiresAt)}</time>.
      </p>
      {invite.url && (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <code className="min-w-0 flex-1 rounded-md bg-slate-950 px-3 py-2 break-all text-teal-200">{invite.url}</code>
          <CopyTextButton text={invite.url} label={`Copiar el enlace de la invitación para ${invite.email}`} />
        </div>
      )}
      <div>
        <Button type="button" variant="ghost" size="sm" onClick={onDone}>
          Hecho
        </Button>
      </div>
    </div>
  );
}
