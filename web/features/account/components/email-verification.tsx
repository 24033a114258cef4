import { BadgeCheck } from 'lucide-react';
import { messageOf } from '../../../api/client';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useEmailVerification, useSendVerification } from '../api/email-verification';
import { Done } from './section';

/** Under the e-mail form: whether the address is verified, and 'Verificar mi email' when it is not. */
export function EmailVerification() {
  const status = useEmailVerification();
  const send = useSendVerification();
  if (!status.data) return null;
  if (status.data.verified) {
    return (
      <p className="flex items-center gap-2 text-sm text-teal-300">
        <BadgeCheck aria-hidden className="size-4 shrink-0" /> Email verificado
      </p>
    );
  }
  if (!status.data.available) {
    return <p className="text-sm text-slate-400">Tu email no está verificado. Este servidor no envía emails, así que no se puede verificar desde aquí.</p>;
  }
  return (
    <div className="grid gap-3 border-t border-slate-800 pt-4">
      <p className="text-sm text-slate-300">Tu email no está verificado: te enviaremos un enlace para confirmar que la dirección es tuya.</p>
      {send.isSuccess && (
        <div className="[overflow-wrap:anywhere]">
          <Done>{send.data.message}</Done>
        </div>
      )}
      {send.isError && <Alert>{messageOf(send.error)}</Alert>}
      <Button type="button" variant="outline" loading={send.isPending} onClick={() => send.mutate()} className="justify-self-start">
        Verificar mi email
      </Button>
    </div>
  );
}
