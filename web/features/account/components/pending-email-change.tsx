import { MailQuestion } from 'lucide-react';
import { messageOf } from '../../../api/client';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toaster';
import { useCancelEmailChange, useResendEmailChange } from '../api/email-verification';
import { Done } from './section';

/**
 * A change of address waiting for the link mailed to the new one: the account keeps its address
 * until then. 'Reenviar' mails another link; 'Cancelar' drops the change (it can be asked again).
 */
export function PendingEmailChange({ email }: { email: string }) {
  const resend = useResendEmailChange();
  const cancel = useCancelEmailChange();
  return (
    <div className="grid gap-3 rounded-lg border border-amber-500/30 bg-amber-500/5 p-4" data-testid="pending-email-change">
      <p className="flex items-start gap-2 text-sm text-amber-100">
        <MailQuestion aria-hidden className="mt-0.5 size-4 shrink-0" />
        <span className="[overflow-wrap:anywhere]">
          Pendiente de confirmar: <strong className="text-white">{email}</strong>
        </span>
      </p>
      <p className="text-sm text-slate-300">Abre el enlace que te enviamos a esa dirección. Hasta entonces sigues entrando con tu email actual.</p>
      {resend.isSuccess && (
        <div className="[overflow-wrap:anywhere]">
          <Done>{resend.data.message}</Done>
        </div>
      )}
      {resend.isError && <Alert>{messageOf(resend.error)}</Alert>}
      {cancel.isError && <Alert>{messageOf(cancel.error)}</Alert>}
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" loading={resend.isPending} onClick={() => resend.mutate()}>
          Reenviar
        </Button>
        <Button
          type="button"
          variant="ghost"
          loading={cancel.isPending}
          onClick={() => cancel.mutate(undefined, { onSuccess: () => toast(`Cambio a ${email} cancelado: tu email sigue igual.`, 'success') })}
        >
          Cancelar el cambio
        </Button>
      </div>
    </div>
  );
}
