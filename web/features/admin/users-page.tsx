import { Link, useSearchParams } from 'react-router';
import { usePageTitle } from '../../app/use-page-title';
import { Button } from '../../components/ui/button';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useSession } from '../auth/api/session';
import { act, PagedList, SearchBox, tableClass } from './admin-parts';
import { useAdminUsers, useDeleteUser, useUpdateUser } from './api/admin-api';

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
          <table className={tableClass}>
            <thead>
              <tr>
                <th>Usuario</th>
                <th>Rol</th>
                <th>Estado</th>
                <th>Links</th>
                <th>Clics</th>
                <th>Alta</th>
                <th>
                  <span className="sr-only">Acciones</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={user.id}>
                  <td>
                    <div className="font-medium">{user.name}</div>
                    <div className="text-slate-400">{user.email}</div>
                  </td>
                  <td>{user.role === 'admin' ? 'Administrador' : 'Usuario'}</td>
                  <td>{user.disabled ? 'Desactivado' : 'Activo'}</td>
                  <td>
                    <Link className="text-teal-300 hover:underline" to={`/admin/links?owner=${user.id}`}>
                      {formatNumber(user.links)}
                    </Link>
                  </td>
                  <td>{formatNumber(user.clicks)}</td>
                  <td>{formatDateTime(user.createdAt)}</td>
                  <td>
                    {user.id !== me?.id && (
                      <div className="flex flex-wrap gap-1" aria-label={`Acciones de ${user.email}`} role="group">
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={() => act(update.mutateAsync({ id: user.id, disabled: !user.disabled }), user.disabled ? 'Usuario activado' : 'Usuario desactivado')}
                        >
                          {user.disabled ? 'Activar' : 'Desactivar'}
                        </Button>
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={() =>
                            act(update.mutateAsync({ id: user.id, role: user.role === 'admin' ? 'user' : 'admin' }), 'Rol cambiado')
                          }
                        >
                          {user.role === 'admin' ? 'Quitar administrador' : 'Hacer administrador'}
                        </Button>
                        <Button
                          size="sm"
                          variant="destructive"
                          onClick={() => {
                            if (window.confirm(`¿Eliminar la cuenta de ${user.email} con todos sus links y estadísticas? No se puede deshacer.`)) {
                              act(remove.mutateAsync(user.id), 'Cuenta eliminada');
                            }
                          }}
                        >
                          Eliminar
                        </Button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </PagedList>
    </section>
  );
}
