import { usePageTitle } from '../../app/use-page-title';
import { formatDateTime } from '../../lib/format';
import { PagedList } from './admin-parts';
import { useAdminReports } from './api/admin-api';
import { LinkActions } from './link-actions';

export function ReportsPage() {
  usePageTitle('Denuncias · Administración');
  const query = useAdminReports();
  return (
    <section className="flex flex-col gap-4">
      <h2 className="text-xl font-semibold">Denuncias</h2>
      <PagedList query={query} empty="No hay denuncias.">
        {(reports) => (
          <ul className="flex flex-col gap-3">
            {reports.map((report) => (
              <li key={report.id} className="rounded-lg border border-slate-800 p-4">
                <p className="text-xs text-slate-400">
                  {formatDateTime(report.createdAt)}
                  {report.email ? ` · ${report.email}` : ''}
                </p>
                <p className="mt-1 whitespace-pre-wrap">{report.reason}</p>
                {report.link ? (
                  <div className="mt-3 flex flex-col gap-2 text-sm">
                    <p>
                      <span className="text-teal-300">{report.link.shortLink}</span> → <span className="break-all text-slate-300">{report.link.originalUrl}</span>
                    </p>
                    <p className="text-slate-400">
                      Propietario: {report.link.owner.email} · {report.link.disabled ? 'Desactivado' : 'Activo'}
                    </p>
                    <LinkActions link={report.link} withOwnerDisable />
                  </div>
                ) : (
                  <p className="mt-2 text-sm text-slate-400">{report.address} (el link ya no existe)</p>
                )}
              </li>
            ))}
          </ul>
        )}
      </PagedList>
    </section>
  );
}
