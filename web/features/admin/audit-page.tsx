import { auditActionLabel, auditDetailLabel } from '@common/admin/audit-labels';
import { usePageTitle } from '../../app/use-page-title';
import { formatDateTime } from '../../lib/format';
import { AdminCard, PagedList } from './admin-parts';
import { useAudit } from './api/admin-api';

export function AuditPage() {
  usePageTitle('Registro · Administración');
  const query = useAudit();
  return (
    <section className="flex flex-col gap-4">
      <h2 className="text-xl font-semibold">Registro de acciones</h2>
      <PagedList query={query} empty="Todavía no hay acciones registradas.">
        {(entries) => (
          <ul className="flex flex-col gap-2" aria-label="Registro de acciones">
            {entries.map((entry) => {
              const detail = auditDetailLabel(entry.action, entry.detail);
              return (
                <AdminCard key={entry.id}>
                  <p className="text-xs text-slate-400">
                    <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time> · {entry.admin}
                  </p>
                  <p className="mt-1">
                    <span className="font-medium">{auditActionLabel(entry.action)}</span>
                    {': '}
                    {entry.target}
                  </p>
                  {detail && <p className="mt-1 text-sm break-words text-slate-300">{detail}</p>}
                </AdminCard>
              );
            })}
          </ul>
        )}
      </PagedList>
    </section>
  );
}
