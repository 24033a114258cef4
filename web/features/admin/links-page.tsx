import { useSearchParams } from 'react-router';
import { usePageTitle } from '../../app/use-page-title';
import { formatDateTime, formatNumber } from '../../lib/format';
import { AdminCard, Facts, PagedList, SearchBox } from './admin-parts';
import { useAdminLinks } from './api/admin-api';
import { LinkActions } from './link-actions';

export function LinksPage() {
  usePageTitle('Links · Administración');
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const owner = params.get('owner') ?? '';
  const query = useAdminLinks(q, owner);

  return (
    <section className="flex flex-col gap-4">
      <h2 className="text-xl font-semibold">Links</h2>
      <SearchBox label="Buscar por título, dirección o dominio de destino" initial={q} onSearch={(text) => setParams(text ? { q: text } : {})} />
      <PagedList query={query} empty="Ningún link coincide con la búsqueda.">
        {(links) => (
          <ul className="flex flex-col gap-3" aria-label="Links">
            {links.map((link) => (
              <AdminCard key={link.id} actions={<LinkActions link={link} />}>
                <p className="font-medium break-words">{link.title}</p>
                <p className="text-sm text-teal-300">{link.shortLink}</p>
                <p className="truncate text-sm text-slate-400" title={link.originalUrl}>
                  {link.originalUrl}
                </p>
                <p className="text-xs text-slate-400">{formatDateTime(link.createdAt)}</p>
                <Facts
                  facts={[
                    ['Propietario', link.owner.email],
                    ['Clics', formatNumber(link.clicks)],
                    ['Estado', link.disabled ? `Desactivado${link.disabledReason ? `: ${link.disabledReason}` : ''}` : 'Activo'],
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
