import type { AdminReport } from '@common/admin/admin-schemas';
import { useSearchParams } from 'react-router';
import { usePageTitle } from '../../app/use-page-title';
import { Button } from '../../components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { formatDateTime, formatNumber } from '../../lib/format';
import { act, PagedList } from './admin-parts';
import { type ReportList, useAdminReports, useOpenReportsCount, useUpdateReport } from './api/admin-api';
import { LinkActions } from './link-actions';

const handledLabel = { resolved: 'Resuelta', dismissed: 'Descartada' } as const;

function ReportItem({ report }: { report: AdminReport }) {
  const update = useUpdateReport();
  const set = (state: AdminReport['state'], done: string) => act(update.mutateAsync({ id: report.id, state }), done);
  return (
    <li className="flex min-w-0 flex-col gap-3 rounded-lg border wrap-anywhere border-slate-800 p-4">
      <p className="text-xs text-slate-400">
        {formatDateTime(report.createdAt)}
        {report.email ? ` · ${report.email}` : ''}
      </p>
      <p className="whitespace-pre-wrap break-words">{report.reason}</p>
      {report.link ? (
        <div className="flex flex-col gap-2 text-sm">
          <p>
            <span className="text-teal-300">{report.link.shortLink}</span> → <span className="text-slate-300">{report.link.originalUrl}</span>
          </p>
          <p className="break-words text-slate-400">
            Propietario: {report.link.owner.email} · {report.link.disabled ? 'Desactivado' : 'Activo'}
          </p>
          <LinkActions link={report.link} withOwnerDisable />
        </div>
      ) : (
        <p className="text-sm text-slate-400">{report.address} (el link ya no existe)</p>
      )}
      <div className="flex flex-wrap items-center gap-2 border-t border-slate-800 pt-3" role="group" aria-label="Gestionar la denuncia">
        {report.state === 'open' ? (
          <>
            <Button size="sm" variant="default" loading={update.isPending} onClick={() => set('resolved', 'Denuncia marcada como resuelta')}>
              Resuelta
            </Button>
            <Button size="sm" variant="outline" loading={update.isPending} onClick={() => set('dismissed', 'Denuncia descartada')}>
              Descartada
            </Button>
          </>
        ) : (
          <>
            <p className="text-sm text-slate-300">
              <span className="font-medium">{handledLabel[report.state]}</span>
              {report.handledAt ? ` el ${formatDateTime(report.handledAt)}` : ''}
              {report.handledBy ? ` por ${report.handledBy}` : ''}
            </p>
            <Button size="sm" variant="ghost" loading={update.isPending} onClick={() => set('open', 'Denuncia reabierta')}>
              Reabrir
            </Button>
          </>
        )}
      </div>
    </li>
  );
}

function ReportsList({ list }: { list: ReportList }) {
  const query = useAdminReports(list);
  return (
    <PagedList query={query} empty={list === 'open' ? 'No hay denuncias abiertas.' : 'Todavía no hay denuncias gestionadas.'}>
      {(reports) => (
        <ul className="flex flex-col gap-3" aria-label={list === 'open' ? 'Denuncias abiertas' : 'Denuncias gestionadas'}>
          {reports.map((report) => (
            <ReportItem key={report.id} report={report} />
          ))}
        </ul>
      )}
    </PagedList>
  );
}

/** Open reports first; resolved and dismissed ones apart, in their own tab (kept in the address). */
export function ReportsPage() {
  usePageTitle('Denuncias · Administración');
  const [params, setParams] = useSearchParams();
  const list: ReportList = params.get('lista') === 'gestionadas' ? 'handled' : 'open';
  const open = useOpenReportsCount();
  return (
    <section className="flex flex-col gap-4">
      <h2 className="text-xl font-semibold">Denuncias</h2>
      <Tabs value={list} onValueChange={(value) => setParams(value === 'handled' ? { lista: 'gestionadas' } : {}, { replace: true })}>
        <TabsList className="sm:max-w-md">
          <TabsTrigger value="open">Abiertas{open.data !== undefined ? ` (${formatNumber(open.data)})` : ''}</TabsTrigger>
          <TabsTrigger value="handled">Gestionadas</TabsTrigger>
        </TabsList>
        <TabsContent value="open">
          <ReportsList list="open" />
        </TabsContent>
        <TabsContent value="handled">
          <ReportsList list="handled" />
        </TabsContent>
      </Tabs>
    </section>
  );
}
