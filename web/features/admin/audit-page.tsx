import { usePageTitle } from '../../app/use-page-title';
import { formatDateTime } from '../../lib/format';
import { PagedList, tableClass } from './admin-parts';
import { useAudit } from './api/admin-api';

const actionLabels: Record<string, string> = {
  'user.disable': 'Desactivó la cuenta',
  'user.enable': 'Activó la cuenta',
  'user.role': 'Cambió el rol',
  'user.delete': 'Eliminó la cuenta',
  'link.disable': 'Desactivó el link',
  'link.enable': 'Activó el link',
  'settings.signup': 'Cambió el registro',
  'settings.blocked_domains': 'Cambió los dominios bloqueados',
  'invite.create': 'Creó una invitación',
};

export function AuditPage() {
  usePageTitle('Registro · Administración');
  const query = useAudit();
  return (
    <section className="flex flex-col gap-4">
      <h2 className="text-xl font-semibold">Registro de acciones</h2>
      <PagedList query={query} empty="Todavía no hay acciones registradas.">
        {(entries) => (
          <table className={tableClass}>
            <thead>
              <tr>
                <th>Cuándo</th>
                <th>Quién</th>
                <th>Qué</th>
                <th>Sobre</th>
                <th>Detalle</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td>{formatDateTime(entry.createdAt)}</td>
                  <td>{entry.admin}</td>
                  <td>{actionLabels[entry.action] ?? entry.action}</td>
                  <td className="break-all">{entry.target}</td>
                  <td className="break-all">{entry.detail ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </PagedList>
    </section>
  );
}
