import type { AdminLink } from '@common/admin/admin-schemas';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { act } from './admin-parts';
import { useUpdateLink, useUpdateUser } from './api/admin-api';

/** Disable (with a reason) or enable a link, open its owner, disable its owner: from any admin list. */
export function LinkActions({ link, withOwnerDisable = false }: { link: AdminLink; withOwnerDisable?: boolean }) {
  const update = useUpdateLink();
  const updateUser = useUpdateUser();
  const toggle = () => {
    if (link.disabled) return act(update.mutateAsync({ id: link.id, disabled: false }), 'Link activado');
    const reason = window.prompt('Motivo de la desactivación (opcional)');
    if (reason === null) return;
    act(update.mutateAsync({ id: link.id, disabled: true, reason }), 'Link desactivado');
  };
  return (
    <div className="flex flex-wrap gap-1" role="group" aria-label={`Acciones de ${link.shortLink}`}>
      <Button size="sm" variant={link.disabled ? 'outline' : 'destructive'} onClick={toggle}>
        {link.disabled ? 'Activar' : 'Desactivar'}
      </Button>
      <Button size="sm" variant="ghost" asChild>
        <Link to={`/admin/usuarios?q=${encodeURIComponent(link.owner.email)}`}>Ver propietario</Link>
      </Button>
      {withOwnerDisable && (
        <Button size="sm" variant="destructive" onClick={() => act(updateUser.mutateAsync({ id: link.owner.id, disabled: true }), 'Usuario desactivado')}>
          Desactivar propietario
        </Button>
      )}
    </div>
  );
}
