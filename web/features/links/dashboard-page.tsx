import { Plus, Search } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePageTitle } from '../../app/use-page-title';
import { Alert } from '../../components/ui/alert';
import { BarLoader } from '../../components/ui/bar-loader';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { linkStatuses, type LinkStatus } from '@common/links/link-schemas';
import { useLinks } from './api/get-links';
import { statusLabels } from './components/link-state';
import { CreateLinkDialog } from './components/create-link-dialog';
import { LinksList } from './components/links-list';
import { TotalsCards } from './components/totals-cards';
import { useDebouncedValue } from './components/use-debounced-value';

export function DashboardPage() {
  usePageTitle('Mis Links');
  const [searchParams, setSearchParams] = useSearchParams();
  const createNew = searchParams.get('createNew') ?? '';
  const [dialogOpen, setDialogOpen] = useState(false);
  const createButton = useRef<HTMLButtonElement>(null);
  const [filter, setFilter] = useState('');
  // The filter runs on the server over every link, once typing pauses.
  const search = useDebouncedValue(filter.trim(), 250);
  const [status, setStatus] = useState<LinkStatus | ''>('');
  const query = useLinks(search, status);

  const pages = query.data?.pages;
  const links = useMemo(() => pages?.flatMap((page) => page.links) ?? [], [pages]);
  const firstPage = pages?.[0];

  const changeDialog = (open: boolean) => {
    setDialogOpen(open);
    // Closing forgets the prefill, so a reload does not open the dialog again.
    if (!open && searchParams.has('createNew')) setSearchParams({}, { replace: true });
  };

  return (
    <div className="space-y-8">
      {query.isFetching && !query.isFetchingNextPage && (
        <BarLoader label="Cargando links" className="fixed inset-x-0 top-0 z-40" />
      )}
      <TotalsCards totals={firstPage?.totals} />

      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight">Mis Links</h1>
        <Button ref={createButton} onClick={() => changeDialog(true)}>
          <Plus aria-hidden /> Crear link
        </Button>
      </div>

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
          onChange={(event) => setStatus(event.target.value as LinkStatus | '')}
          className="h-10 rounded-lg border border-slate-700 bg-slate-900 px-3 text-sm text-slate-100 focus-visible:outline-2 focus-visible:outline-teal-400/60"
        >
          <option value="">Todos los estados</option>
          {linkStatuses.map((value) => (
            <option key={value} value={value}>
              {statusLabels[value]}
            </option>
          ))}
        </select>
      </div>

      {query.error && (
        <Alert>{query.error.message}</Alert>
      )}

      {firstPage && links.length === 0 && !query.isPlaceholderData && (
        <p className="py-8 text-center text-slate-300">
          {search || status ? 'Ningún link coincide con el filtro.' : 'Todavía no tienes links. Crea el primero con «Crear link».'}
        </p>
      )}
      <LinksList
        links={links}
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        fetchNextPage={query.fetchNextPage}
      />

      <CreateLinkDialog
        open={dialogOpen || createNew !== ''}
        onOpenChange={changeDialog}
        initialLongUrl={createNew}
        publicBaseUrl={firstPage?.publicBaseUrl ?? window.location.origin}
        returnFocusTo={createButton}
      />
    </div>
  );
}
