import { BadgeCheck } from 'lucide-react';
import { messageOf } from '../../../api/client';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useEmailVerification, useSendVerification } from '../api/email-verification';
import { PendingEmailChange } from './pending-email-change';
import { Done } from './section';

/**
 * Under the e-mail form: whether the address is confirmed ('Reenviar' when a link is already out,
 * 'Verificar mi email' when none is), and a change of address waiting for its link.
 */
export function EmailVerification() {
  const status = useEmailVerification();
  if (!status.data) return null;
  const { verified, available, linkSent, pendingEmail } = status.data;
  return (
    <div className="grid gap-4">
      {verified ? (
        <p className="flex items-center gap-2 text-sm text-teal-300">
          <BadgeCheck aria-hidden className="size-4 shrink-0" /> Email verificado
        </p>
      ) : !available ? (
        <p className="text-sm text-slate-400">Tu email no está verificado. Este servidor no envía emails, así que no se puede verificar desde aquí.</p>
      ) : (
        <SendVerification linkSent={linkSent} />
      )}
      {pendingEmail && <PendingEmailChange email={pendingEmail} />}
    </div>
  );
}

function SendVerification({ linkSent }: { linkSent: boolean }) {
  const send = useSendVerification();
  return (
    <div className="grid gap-3 border-t border-slate-800 pt-4">
      <p className="text-sm text-slate-300">
        {linkSent
          ? 'Tu email no está verificado: te enviamos un enlace para confirmar que la dirección es tuya. Si no lo encuentras (mira también en spam), pide otro.'
          : 'Tu email no está verificado: te enviaremos un enlace para confirmar que la dirección es tuya.'}
      </p>
      {send.isSuccess && (
        <div className="[overflow-wrap:anywhere]">
          <Done>{send.data.message}</Done>
        </div>
      )}
      {send.isError && <Alert>{messageOf(send.error)}</Alert>}
      <Button type="button" variant="outline" loading={send.isPending} onClick={() => send.mutate()} className="justify-self-start">
        {linkSent ? 'Reenviar' : 'Verificar mi email'}
      </Button>
    </div>
  );
}
