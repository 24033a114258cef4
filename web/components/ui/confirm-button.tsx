import { type ReactNode, useState } from 'react';
import { Button, type ButtonProps } from './button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from './dialog';

type ConfirmButtonProps = Omit<ButtonProps, 'onClick' | 'asChild'> & {
  /** The question, e.g. «¿Revocar el token «CI»?». */
  title: string;
  /** What will happen, and that it cannot be undone. */
  description: ReactNode;
  /** The confirming button's words («Revocar», «Liberar»). */
  confirmLabel: string;
  /** Runs once the user confirmed; the dialog is already closed. */
  onConfirm: () => void;
};

/**
 * A button for something that cannot be undone: it asks first, in the app's own dialog, with
 * «Cancelar» focused so a hurried Enter does nothing. Closing the dialog puts focus back on it.
 */
export function ConfirmButton({ title, description, confirmLabel, onConfirm, variant = 'destructive', children, ...button }: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant={variant} {...button}>
          {children}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" autoFocus>
              Cancelar
            </Button>
          </DialogClose>
          <Button
            variant="destructive"
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
