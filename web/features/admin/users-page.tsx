import { Link, useSearchParams } from 'react-router';
import { usePageTitle } from '../../app/use-page-title';
import { Button } from '../../components/ui/button';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useSession } from '../auth/api/session';
import { act, AdminCard, Facts, PagedList, SearchBox } from './admin-parts';
import { useAdminUsers, useDeleteUser, useUpdateUser } from './api/admin-api';
import { ConfirmAction } from './confirm-action';

export function UsersPage() {
  usePageTitle('Usuarios · Administración');
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const query = useAdminUsers(q);
  const update = useUpdateUser();
  const remove = useDeleteUser();
  const { user: me } = useSession();

  return (
    <section className="flex flex-col gap-4">
      <h2 className="text-xl font-semibold">Usuarios</h2>
      <SearchBox label="Buscar por email o nombre" initial={q} onSearch={(text) => setParams(text ? { q: text } : {})} />
      <PagedList query={query} empty="Ningún usuario coincide con la búsqueda.">
        {(users) => (
          <ul className="flex flex-col gap-3" aria-label="Usuarios">
            {users.map((user) => (
              <AdminCard
                key={user.id}
                actions={
                  user.id !== me?.id && (
                    <div className="flex flex-wrap gap-1" aria-label={`Acciones de ${user.email}`} role="group">
                      {user.disabled ? (
                        <Button size="sm" variant="outline" onClick={() => act(update.mutateAsync({ id: user.id, disabled: false }), 'Usuario activado')}>
                          Activar
                        </Button>
                      ) : (
                        <ConfirmAction
                          label="Desactivar"
                          variant="outline"
                          title={`¿Desactivar la cuenta de ${user.email}?`}
                          description="No podrá entrar, sus sesiones y tokens se cerrarán y todos sus links dejarán de funcionar. Puedes volver a activarla cuando quieras."
                          confirmLabel="Desactivar cuenta"
                          withReason
                          done="Usuario desactivado"
                          onConfirm={(reason) => update.mutateAsync({ id: user.id, disabled: true, reason })}
                        />
                      )}
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => act(update.mutateAsync({ id: user.id, role: user.role === 'admin' ? 'user' : 'admin' }), 'Rol cambiado')}
                      >
                        {user.role === 'admin' ? 'Quitar administrador' : 'Hacer administrador'}
                      </Button>
                      <ConfirmAction
                        label="Eliminar"
                        title={`¿Eliminar la cuenta de ${user.email}?`}
                        description="Se eliminarán la cuenta, todos sus links y sus estadísticas. No se puede deshacer."
                        confirmLabel="Eliminar cuenta"
                        done="Cuenta eliminada"
                        onConfirm={() => remove.mutateAsync(user.id)}
                      />
                    </div>
                  )
                }
              >
                <p className="font-medium break-words">{user.name}</p>
                <p className="text-sm text-slate-400">{user.email}</p>
                <Facts
                  facts={[
                    ['Rol', user.role === 'admin' ? 'Administrador' : 'Usuario'],
                    ['Estado', user.disabled ? 'Desactivado' : 'Activo'],
                    [
                      'Links',
                      <Link key="links" className="text-teal-300 hover:underline" to={`/admin/links?owner=${user.id}`}>
                        {formatNumber(user.links)}
                      </Link>,
                    ],
                    ['Clics', formatNumber(user.clicks)],
                    ['Alta', formatDateTime(user.createdAt)],
                  ]}
                />
              </AdminCard>
            ))}
          </ul>
        )}
      </PagedList>
    </section>
  );
}
