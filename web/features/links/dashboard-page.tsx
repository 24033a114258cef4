import { Download, Plus, Search } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePageTitle } from '../../app/use-page-title';
import { Alert } from '../../components/ui/alert';
import { BarLoader } from '../../components/ui/bar-loader';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { type Link, type LinkSort, linkStatuses, type LinkStatus, type SortOrder } from '@common/links/link-schemas';
import { useLinks } from './api/get-links';
import { useTags } from './api/get-tags';
import { statusLabels } from './components/link-state';
import { CreateLinkDialog } from './components/create-link-dialog';
import { ImportLinksDialog } from './components/import-links-dialog';
import { LinksList } from './components/links-list';
import { SelectionBar } from './components/selection-bar';
import { TotalsCards } from './components/totals-cards';
import { useDebouncedValue } from './components/use-debounced-value';
import { roleMayNotReasons } from '@common/workspaces/workspace-roles';
import { useMembers } from '../workspaces/api/members';
import { useCurrentWorkspace } from '../workspaces/current-workspace';
import { withWorkspace } from '../workspaces/workspace-path';
import { useDomains } from '../domains/api/domains';
import { domainFilterOptions, readableHost } from '../domains/domain-choices';

// The sorts offered, as `sort-order`; the first is the server's default and stays out of the URL.
const sortOptions: { value: `${LinkSort}-${SortOrder}`; label: string }[] = [
  { value: 'created-desc', label: 'Más recientes' },
  { value: 'created-asc', label: 'Más antiguos' },
  { value: 'clicks-desc', label: 'Más clics' },
  { value: 'clicks-asc', label: 'Menos clics' },
  { value: 'title-asc', label: 'Título (A-Z)' },
  { value: 'title-desc', label: 'Título (Z-A)' },
];
const selectClass =
  'h-10 rounded-lg border border-slate-700 bg-slate-900 px-3 text-sm text-slate-100 focus-visible:outline-2 focus-visible:outline-teal-400/60';

/** The state, the tag, the domain and the sort live in the address: a reload keeps them, and a copied address shares the view. */
function useListParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const tag = searchParams.get('tag') ?? '';
  const statusParam = searchParams.get('status');
  const status: LinkStatus | '' = linkStatuses.find((value) => value === statusParam) ?? '';
  const sortParam = searchParams.get('sort');
  const sort: LinkSort = sortParam === 'clicks' || sortParam === 'title' ? sortParam : 'created';
  const order: SortOrder = searchParams.get('order') === 'asc' ? 'asc' : 'desc';
  const createdByParam = searchParams.get('createdBy');
  const createdBy = createdByParam && /^[1-9]\d{0,14}$/.test(createdByParam) ? Number(createdByParam) : undefined;
  const update = (changes: Record<string, string | null>) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  const domain = searchParams.get('domain') ?? '';
  return { searchParams, status, tag, domain, sort, order, createdBy, update };
}

export function DashboardPage() {
  const { scope, workspace, may } = useCurrentWorkspace();
  // A team's dashboard is named after the team; the personal one stays «Mis Links».
  const team = workspace && !workspace.personal ? workspace : undefined;
  const heading = team ? team.name : 'Mis Links';
  usePageTitle(heading);
  const canWrite = may('write');
  const members = useMembers(team ? team.slug : null).data ?? [];
  const { searchParams, status, tag, domain, sort, order, createdBy: creatorParam, update } = useListParams();
  // The filter by domain shows once the workspace has domains (or the address names one).
  const domainOptions = domainFilterOptions(useDomains().data);
  // The creator filter belongs to team workspaces (in the personal one every link is the user's).
  const createdBy = team ? creatorParam : undefined;
  const tags = useTags().data?.tags ?? [];
  // The address may spell the tag in another case: the select shows the tag's own spelling.
  const shownTag = tags.find((known) => known.name.toLowerCase() === tag.toLowerCase())?.name ?? tag;
  const createNew = searchParams.get('createNew') ?? '';
  const [dialogOpen, setDialogOpen] = useState(false);
  const createButton = useRef<HTMLButtonElement>(null);
  const [filter, setFilter] = useState('');
  // The filter runs on the server over every link, once typing pauses.
  const search = useDebouncedValue(filter.trim(), 250);
  const query = useLinks({ createdBy, search, status, tag, domain, sort, order });

  const [selected, setSelected] = useState<Map<number, Link>>(() => new Map());
  const select = (link: Link, checked: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      if (checked) next.set(link.id, link);
      else next.delete(link.id);
      return next;
    });

  const pages = query.data?.pages;
  const links = useMemo(() => pages?.flatMap((page) => page.links) ?? [], [pages]);
  const firstPage = pages?.[0];
  // The selected links as the list shows them now (a change made in bulk included).
  const selectedNow = useMemo(() => {
    const now = new Map(selected);
    for (const link of links) if (now.has(link.id)) now.set(link.id, link);
    return now;
  }, [selected, links]);

  const changeDialog = (open: boolean) => {
    setDialogOpen(open);
    // Closing forgets the prefill, so a reload does not open the dialog again.
    if (!open && searchParams.has('createNew')) update({ createNew: null });
  };

  return (
    <div className="space-y-8">
      {query.isFetching && !query.isFetchingNextPage && (
        <BarLoader label="Cargando links" className="fixed inset-x-0 top-0 z-40" />
      )}
      <TotalsCards totals={firstPage?.totals} />

      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="min-w-0 text-3xl font-bold tracking-tight break-words">{heading}</h1>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <a href={withWorkspace('/api/links.csv', scope)} download>
              <Download aria-hidden /> Exportar CSV
            </a>
          </Button>
          {canWrite && <ImportLinksDialog />}
          {canWrite && (
            <Button ref={createButton} onClick={() => changeDialog(true)}>
              <Plus aria-hidden /> Crear link
            </Button>
          )}
        </div>
      </div>
      {!canWrite && <p className="rounded-lg border border-slate-700 bg-slate-900/70 px-3 py-2 text-sm text-slate-300">{roleMayNotReasons.write}</p>}

      <div className="flex flex-col gap-3 sm:flex-row">
        <div className="relative flex-1">
          <Search aria-hidden className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
          <Input
            type="search"
            aria-label="Filtrar links"
            placeholder="Filtrar links..."
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            className="pl-9"
          />
        </div>
        <select
          aria-label="Filtrar por estado"
          value={status}
          onChange={(event) => update({ status: event.target.value })}
          className={selectClass}
        >
          <option value="">Todos los estados</option>
          {linkStatuses.map((value) => (
            <option key={value} value={value}>
              {statusLabels[value]}
            </option>
          ))}
        </select>
        <select aria-label="Filtrar por etiqueta" value={shownTag} onChange={(event) => update({ tag: event.target.value })} className={selectClass}>
          <option value="">Todas las etiquetas</option>
          {/* A tag from a shared address shows even before the list of tags arrives (or when no link has it any more). */}
          {shownTag === tag && tag !== '' && <option value={tag}>{tag}</option>}
          {tags.map((known) => (
            <option key={known.name} value={known.name}>
              {known.name} ({known.links})
            </option>
          ))}
        </select>
        {team && (
          <select
            aria-label="Filtrar por creador"
            value={createdBy ?? ''}
            onChange={(event) => update({ createdBy: event.target.value })}
            className={selectClass}
          >
            <option value="">Todos los miembros</option>
            {/* A creator from a shared address shows before the members arrive (or after they left). */}
            {createdBy !== undefined && !members.some((member) => member.user.id === createdBy) && (
              <option value={createdBy}>Otro miembro</option>
            )}
            {members.map((member) => (
              <option key={member.user.id} value={member.user.id}>
                {member.user.name}
              </option>
            ))}
          </select>
        )}
        {(domainOptions.length > 0 || domain !== '') && (
          <select aria-label="Filtrar por dominio" value={domain} onChange={(event) => update({ domain: event.target.value })} className={selectClass}>
            <option value="">Todos los dominios</option>
            {domain !== '' && !domainOptions.some((option) => option.value === domain) && <option value={domain}>{readableHost(domain)}</option>}
            {domainOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        )}
        <select
          aria-label="Ordenar"
          value={`${sort}-${order}`}
          onChange={(event) => {
            const [nextSort, nextOrder] = event.target.value.split('-');
            update({ sort: nextSort === 'created' ? null : nextSort!, order: nextOrder === 'desc' ? null : nextOrder! });
          }}
          className={selectClass}
        >
          {sortOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>

      {query.error && (
        <Alert>{query.error.message}</Alert>
      )}

      {firstPage && links.length === 0 && !query.isPlaceholderData && (
        <p className="py-8 text-center text-slate-300">
          {search || status || tag || domain || createdBy
            ? 'Ningún link coincide con el filtro.'
            : team
              ? canWrite
                ? 'Este espacio aún no tiene links. Crea el primero con «Crear link».'
                : 'Este espacio aún no tiene links.'
              : 'Todavía no tienes links. Crea el primero con «Crear link».'}
        </p>
      )}
      {/* Every bulk action but the export changes links: a reader gets no selection at all. */}
      {canWrite && (
        <SelectionBar
          selected={selectedNow}
          onSelect={(all) => setSelected(new Map(all.map((link) => [link.id, link])))}
          onClear={() => setSelected(new Map())}
          filter={{ workspace: scope, createdBy, search, status, tag, domain, sort, order }}
          hasLinks={links.length > 0}
        />
      )}
      <LinksList
        {...(canWrite ? { selected, onSelectedChange: select } : {})}
        links={links}
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        fetchNextPage={query.fetchNextPage}
      />

      <CreateLinkDialog
        open={canWrite && (dialogOpen || createNew !== '')}
        onOpenChange={changeDialog}
        initialLongUrl={createNew}
        publicBaseUrl={firstPage?.publicBaseUrl ?? window.location.origin}
        returnFocusTo={createButton}
      />
    </div>
  );
}
