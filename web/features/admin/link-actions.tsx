import type { AdminLink } from '@common/admin/admin-schemas';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { act } from './admin-parts';
import { useUpdateLink, useUpdateUser } from './api/admin-api';
import { ConfirmAction } from './confirm-action';

/** Disable (with a reason) or enable a link, open its owner, disable its owner: from any admin list. */
export function LinkActions({ link, withOwnerDisable = false }: { link: AdminLink; withOwnerDisable?: boolean }) {
  const update = useUpdateLink();
  const updateUser = useUpdateUser();
  return (
    <div className="flex flex-wrap gap-1" role="group" aria-label={`Acciones de ${link.shortLink}`}>
      {link.disabled ? (
        <Button size="sm" variant="outline" onClick={() => act(update.mutateAsync({ id: link.id, disabled: false }), 'Link activado')}>
          Activar
        </Button>
      ) : (
        <ConfirmAction
          label="Desactivar"
          title="¿Desactivar este link?"
          description={`Quien abra ${link.shortLink} verá «Este link ha sido desactivado» en lugar de ir a su destino. Puedes volver a activarlo cuando quieras.`}
          confirmLabel="Desactivar"
          withReason
          done="Link desactivado"
          onConfirm={(reason) => update.mutateAsync({ id: link.id, disabled: true, reason })}
        />
      )}
      <Button size="sm" variant="ghost" asChild>
        <Link to={`/admin/usuarios?q=${encodeURIComponent(link.owner.email)}`}>Ver propietario</Link>
      </Button>
      {withOwnerDisable && (
        <ConfirmAction
          label="Desactivar propietario"
          title="¿Desactivar la cuenta del propietario?"
          description={`${link.owner.email} no podrá entrar, sus sesiones y tokens se cerrarán y todos sus links dejarán de funcionar. Puedes volver a activarla en Usuarios.`}
          confirmLabel="Desactivar cuenta"
          withReason
          done="Usuario desactivado"
          onConfirm={(reason) => updateUser.mutateAsync({ id: link.owner.id, disabled: true, reason })}
        />
      )}
    </div>
  );
}
