import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button, type ButtonProps } from '../../../components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toaster';
import { messageOf } from '../../../api/client';
import { useDeleteLink } from '../api/delete-link';

type DeleteLinkButtonProps = {
  link: { id: number; title: string };
  /** Runs once the link is deleted (the lists are already refreshing). */
  onDeleted?: () => void;
} & Pick<ButtonProps, 'size' | 'className'>;

/** Delete, after a confirmation; the button spins and stays disabled while the call runs. */
export function DeleteLinkButton({ link, onDeleted, size = 'icon', className }: DeleteLinkButtonProps) {
  const [open, setOpen] = useState(false);
  const deletion = useDeleteLink();

  const confirm = () => {
    setOpen(false);
    deletion.mutate(link.id, {
      onSuccess: onDeleted,
      // The spec logs a failed delete; the link stays, and the user is told why.
      onError: (error) => {
        console.error('Failed to delete URL:', error);
        toast(`No se ha eliminado «${link.title}». ${messageOf(error)}`);
      },
    });
  };

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      {/* A Trigger, so closing the confirmation (Cancelar, Esc, ✕) puts focus back on this button. */}
      <DialogTrigger asChild>
        <Button
          size={size}
          variant="destructive"
          className={className}
          loading={deletion.isPending}
          aria-label="Eliminar link"
          title="Eliminar"
        >
          {!deletion.isPending && <Trash2 aria-hidden />}
          {size !== 'icon' && 'Eliminar'}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>¿Eliminar este link?</DialogTitle>
          <DialogDescription>
            Se eliminará «{link.title}» y su dirección corta dejará de funcionar. No se puede deshacer.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancelar</Button>
          </DialogClose>
          <Button variant="destructive" onClick={confirm}>
            Eliminar
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
