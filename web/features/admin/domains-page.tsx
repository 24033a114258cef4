import { Link, useSearchParams } from 'react-router';
import { usePageTitle } from '../../app/use-page-title';
import { Button } from '../../components/ui/button';
import { formatDateTime, formatNumber } from '../../lib/format';
import { domainState, domainStateLabels } from '../domains/domain-choices';
import { AdminCard, act, Facts, PagedList, SearchBox } from './admin-parts';
import type { AdminDomain } from '@common/domains/domain-schemas';
import { useAdminDomains, useUpdateDomain } from './api/admin-api';
import { ConfirmAction } from './confirm-action';

/** /admin/dominios: every workspace's own domains; the operator disables one (its links answer 410) or enables it. */
export function DomainsPage() {
  usePageTitle('Dominios · Administración');
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const query = useAdminDomains(q);
  return (
    <section className="flex flex-col gap-4">
      <h2 className="text-xl font-semibold">Dominios</h2>
      <p className="text-sm text-slate-300">Los dominios propios que los espacios de trabajo han añadido. Desactivar uno hace que todos sus links respondan que ya no están disponibles.</p>
      <SearchBox label="Buscar por dominio o espacio" initial={q} onSearch={(text) => setParams(text ? { q: text } : {})} />
      <PagedList query={query} empty={q ? 'Ningún dominio coincide con la búsqueda.' : 'Ningún espacio ha añadido dominios propios.'}>
        {(domains) => (
          <ul className="flex flex-col gap-3" aria-label="Dominios">
            {domains.map((domain) => (
              <AdminCard key={domain.id} actions={<DomainActions domain={domain} />}>
                <p className="font-medium break-all">{domain.displayHostname}</p>
                {domain.displayHostname !== domain.hostname && <p className="text-xs break-all text-slate-400">{domain.hostname}</p>}
                <Facts
                  facts={[
                    ['Estado', domainStateLabels[domainState(domain)]],
                    [
                      'Espacio',
                      <Link key="espacio" className="text-teal-300 hover:underline" to={`/admin/espacios?q=${encodeURIComponent(domain.workspace.slug)}`}>
                        {domain.workspace.name}
                      </Link>,
                    ],
                    ['Links', formatNumber(domain.links)],
                    ['Alta', <time key="alta" dateTime={domain.createdAt}>{formatDateTime(domain.createdAt)}</time>],
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

function DomainActions({ domain }: { domain: AdminDomain }) {
  const update = useUpdateDomain();
  return (
    <div className="flex flex-wrap gap-1" role="group" aria-label={`Acciones de ${domain.displayHostname}`}>
      {domain.disabled ? (
        <Button size="sm" variant="outline" onClick={() => act(update.mutateAsync({ id: domain.id, disabled: false }), `Dominio ${domain.displayHostname} activado`)}>
          Activar
        </Button>
      ) : (
        <ConfirmAction
          label="Desactivar"
          title={`¿Desactivar ${domain.displayHostname}?`}
          description={`Sus ${formatNumber(domain.links)} links dejarán de llevar a su destino: quien los abra verá que ya no están disponibles. El espacio «${domain.workspace.name}» lo verá desactivado. Puedes volver a activarlo cuando quieras.`}
          confirmLabel="Desactivar"
          withReason
          done={`Dominio ${domain.displayHostname} desactivado`}
          onConfirm={(reason) => update.mutateAsync({ id: domain.id, disabled: true, reason })}
        />
      )}
    </div>
  );
}
