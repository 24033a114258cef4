import { type FormEvent, useId, useState } from 'react';
import { messageOf } from '../../api/client';
import { Alert } from '../../components/ui/alert';
import { Button, type ButtonProps } from '../../components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '../../components/ui/dialog';
import { Label } from '../../components/ui/label';
import { toast } from '../../components/ui/toaster';

interface ConfirmActionProps {
  /** The button that opens the dialog. */
  label: string;
  variant?: ButtonProps['variant'];
  title: string;
  description: string;
  /** The dialog's own button ('Desactivar', 'Eliminar'). */
  confirmLabel: string;
  /** Shows an optional 'Motivo' field; its text is passed to onConfirm. */
  withReason?: boolean;
  /** The success notice. */
  done: string;
  onConfirm(reason: string): Promise<unknown>;
}

/**
 * An operator's action that asks first, in the app's own dialog (never the browser's prompt or
 * confirm): what it does, an optional reason, Cancelar / the action. A refusal stays in the dialog
 * beside its buttons; success closes it with a notice, focus back on the button that opened it.
 */
export function ConfirmAction({ label, variant = 'destructive', title, description, confirmLabel, withReason = false, done, onConfirm }: ConfirmActionProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);

  const change = (next: boolean) => {
    if (busy) return;
    setOpen(next);
    if (next) {
      setReason('');
      setFailure(undefined);
    }
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    try {
      await onConfirm(reason.trim());
      setOpen(false);
      toast(done, 'info');
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogTrigger asChild>
        <Button size="sm" variant={variant}>
          {label}
        </Button>
      </DialogTrigger>
      <DialogContent dismissible={!busy}>
        <form onSubmit={(event) => void submit(event)} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          {withReason && (
            <div className="grid gap-1">
              <Label htmlFor={`${id}-reason`}>Motivo (opcional)</Label>
              <textarea
                id={`${id}-reason`}
                rows={3}
                maxLength={500}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                aria-describedby={`${id}-reason-help`}
                className="rounded-lg border border-slate-700 bg-slate-900 p-3 text-sm focus-visible:border-teal-400 focus-visible:outline-2 focus-visible:outline-teal-400/60"
              />
              <p id={`${id}-reason-help`} className="text-xs text-slate-400">
                Queda en el registro de acciones.
              </p>
            </div>
          )}
          {failure && <Alert>{failure}</Alert>}
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline" disabled={busy}>
                Cancelar
              </Button>
            </DialogClose>
            <Button type="submit" variant={variant === 'destructive' ? 'destructive' : 'default'} loading={busy}>
              {confirmLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
