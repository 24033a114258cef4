import type { Link } from '@common/links/link-schemas';
import { Pencil } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button, type ButtonProps } from '../../../components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { DisabledNotice } from './link-state';

type EditLinkButtonProps = { link: Link } & Pick<ButtonProps, 'size' | 'className'>;

// The form is a chunk of its own, fetched when a dialog first opens (or the pointer or focus
// reaches «Editar», so that it is usually there by then).
const loadForm = () => import('./edit-link-form');
const EditLinkForm = lazy(loadForm);

/** 'Editar': the creation dialog's fields plus pause, expiry (date and click limit) and password. */
export function EditLinkButton({ link, size = 'icon', className }: EditLinkButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size={size} variant="outline" className={className} aria-label="Editar link" title="Editar" onPointerEnter={loadForm} onFocus={loadForm}>
          <Pencil aria-hidden />
          {size !== 'icon' && 'Editar'}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Editar link</DialogTitle>
          <DialogDescription>
            {link.disabledCause === 'operator'
              ? 'Este link está desactivado por quien administra el servidor.'
              : 'La dirección corta, el código QR y las estadísticas se conservan.'}
          </DialogDescription>
        </DialogHeader>
        {/* The operator's decision cannot be edited away: the dialog says so instead of a form. */}
        {open && link.disabledCause === 'operator' && (
          <div className="grid gap-4">
            <DisabledNotice link={link} />
            <div className="flex justify-end">
              <DialogClose asChild>
                <Button variant="outline">Cerrar</Button>
              </DialogClose>
            </div>
          </div>
        )}
        {/* Mounted only while open, so every opening starts from the link as it is now. */}
        {open && link.disabledCause !== 'operator' && (
          <Suspense fallback={<p className="text-sm text-slate-300">Cargando…</p>}>
            <EditLinkForm link={link} onSaved={() => setOpen(false)} />
          </Suspense>
        )}
      </DialogContent>
    </Dialog>
  );
}
