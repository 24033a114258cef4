import { useSearchParams } from 'react-router';
import { usePageTitle } from '../../app/use-page-title';
import { formatDateTime, formatNumber } from '../../lib/format';
import { PagedList, SearchBox, tableClass } from './admin-parts';
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
          <table className={tableClass}>
            <thead>
              <tr>
                <th>Link</th>
                <th>Propietario</th>
                <th>Clics</th>
                <th>Estado</th>
                <th>
                  <span className="sr-only">Acciones</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {links.map((link) => (
                <tr key={link.id}>
                  <td className="max-w-md">
                    <div className="font-medium">{link.title}</div>
                    <div className="text-teal-300">{link.shortLink}</div>
                    <div className="truncate text-slate-400">{link.originalUrl}</div>
                    <div className="text-xs text-slate-500">{formatDateTime(link.createdAt)}</div>
                  </td>
                  <td>{link.owner.email}</td>
                  <td>{formatNumber(link.clicks)}</td>
                  <td>{link.disabled ? `Desactivado${link.disabledReason ? `: ${link.disabledReason}` : ''}` : 'Activo'}</td>
                  <td>
                    <LinkActions link={link} />
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
