import type { AdminWorkspace } from '@common/workspaces/workspace-schemas';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { usePageTitle } from '../../app/use-page-title';
import { formatCount, formatDateTime, formatNumber, nouns } from '../../lib/format';
import { AdminCard, Facts, PagedList, SearchBox } from './admin-parts';
import { useAdminWorkspaces, useDeleteWorkspace } from './api/admin-api';
import { ConfirmAction } from './confirm-action';

export function WorkspacesPage() {
  usePageTitle('Espacios de trabajo · Administración');
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const query = useAdminWorkspaces(q);
  const remove = useDeleteWorkspace();
  const heading = useRef<HTMLHeadingElement>(null);
  // The deleted workspace's card takes its button, and the focus with it: once the card has gone,
  // the keyboard carries on from the screen's heading rather than from the top of the page.
  const [deleted, setDeleted] = useState<number>();
  const { data } = query;
  useEffect(() => {
    if (deleted === undefined || data?.pages.some((page) => page.items.some((workspace) => workspace.id === deleted))) return;
    // After the dialog's own cleanup, which would hand focus back to the button that is no more.
    window.setTimeout(() => {
      setDeleted(undefined);
      heading.current?.focus();
    }, 0);
  }, [deleted, data]);

  const deleteTeam = async (workspace: AdminWorkspace) => {
    await remove.mutateAsync(workspace.id);
    setDeleted(workspace.id);
  };

  return (
    <section className="flex flex-col gap-4">
      <h2 ref={heading} tabIndex={-1} className="text-xl font-semibold outline-none">
        Espacios de trabajo
      </h2>
      <SearchBox label="Buscar por nombre o identificador" initial={q} onSearch={(text) => setParams(text ? { q: text } : {})} />
      <PagedList query={query} empty="Ningún espacio de trabajo coincide con la búsqueda.">
        {(workspaces) => (
          <ul className="flex flex-col gap-3" aria-label="Espacios de trabajo">
            {workspaces.map((workspace) => (
              <AdminCard
                key={workspace.id}
                actions={
                  workspace.personal ? (
                    <div className="flex flex-col gap-1 text-sm text-slate-400 sm:items-end sm:text-right">
                      <p>Un espacio personal no se elimina aparte: se elimina con la cuenta de su dueño.</p>
                      <Link className="text-teal-300 hover:underline" to={`/admin/usuarios?q=${encodeURIComponent(workspace.name)}`}>
                        Buscar la cuenta
                      </Link>
                    </div>
                  ) : (
                    <div className="flex flex-wrap gap-1" role="group" aria-label={`Acciones de ${workspace.name}`}>
                      <ConfirmAction
                        label="Eliminar"
                        title={`¿Eliminar el espacio «${workspace.name}»?`}
                        description={`Se eliminarán /w/${workspace.slug}, sus ${formatCount(workspace.links, nouns.link)} y sus estadísticas. Sus links dejarán de funcionar al momento. No se puede deshacer.`}
                        confirmLabel="Eliminar espacio"
                        done={`Espacio «${workspace.name}» eliminado`}
                        onConfirm={() => deleteTeam(workspace)}
                      />
                    </div>
                  )
                }
              >
                <p className="font-medium break-words">{workspace.name}</p>
                <p className="text-sm text-teal-300">/w/{workspace.slug}</p>
                <Facts
                  facts={[
                    ['Tipo', workspace.personal ? 'Personal' : 'Equipo'],
                    ['Miembros', formatNumber(workspace.members)],
                    ['Links', formatNumber(workspace.links)],
                    ['Clics', formatNumber(workspace.clicks)],
                    ['Alta', <time key="alta" dateTime={workspace.createdAt}>{formatDateTime(workspace.createdAt)}</time>],
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
