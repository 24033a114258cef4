import { useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { messageOf } from '../../../api/client';
import { useRevokeAllTokens } from '../api/tokens';

/**
 * 'Revocar todos los tokens', behind a confirmation: every API token of the account stops at once
 * (someone who got in may have made one). The server's sentence is shown where the button is.
 */
export function RevokeAllTokens() {
  const mutation = useRevokeAllTokens();
  const [open, setOpen] = useState(false);
  return (
    <div className="grid gap-3">
      <p className="text-sm text-slate-300">
        Cerrar las demás sesiones no revoca tus tokens de API: si crees que alguien ha entrado en tu cuenta, revócalos todos (o uno a
        uno en{' '}
        <Link className="text-teal-300 underline" to="/cuenta/tokens">
          Tokens de API
        </Link>
        ). Cambiar la contraseña también los revoca.
      </p>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (next) mutation.reset();
        }}
      >
        <DialogTrigger asChild>
          <Button variant="destructive" className="justify-self-start">
            Revocar todos los tokens
          </Button>
        </DialogTrigger>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>¿Revocar todos tus tokens de API?</DialogTitle>
            <DialogDescription>Los programas que los usan dejarán de tener acceso al momento. No se puede deshacer.</DialogDescription>
          </DialogHeader>
          {mutation.isError && <Alert>{messageOf(mutation.error)}</Alert>}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancelar</Button>
            </DialogClose>
            <Button variant="destructive" loading={mutation.isPending} onClick={() => mutation.mutate(undefined, { onSuccess: () => setOpen(false) })}>
              Revocar todos
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      {mutation.isSuccess && !open && (
        <p role="status" className="text-sm text-teal-300">
          {mutation.data.message}
        </p>
      )}
    </div>
  );
}
