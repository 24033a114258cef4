import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { messageOf } from '../../api/client';
import { Alert } from '../../components/ui/alert';
import { BarLoader } from '../../components/ui/bar-loader';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { toast } from '../../components/ui/toaster';

/** A search box that searches on submit (Enter or the button). */
export function SearchBox({ label, initial, onSearch }: { label: string; initial: string; onSearch(q: string): void }) {
  const [text, setText] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form role="search" onSubmit={submit} className="flex gap-2">
      <Input type="search" aria-label={label} placeholder={label} value={text} onChange={(event) => setText(event.target.value)} />
      <Button type="submit" variant="secondary">
        Buscar
      </Button>
    </form>
  );
}

/** A paged list's states: loading, failed, empty, the rows, and 'Cargar más' while there is more. */
export function PagedList<T>({
  query,
  empty,
  children,
}: {
  query: UseInfiniteQueryResult<InfiniteData<{ items: T[] }>>;
  empty: string;
  children(items: T[]): ReactNode;
}) {
  if (query.isPending) return <BarLoader label="Cargando" />;
  if (query.isError) return <Alert>{messageOf(query.error)}</Alert>;
  const items = query.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <p className="text-slate-400">{empty}</p>;
  return (
    <div className="flex flex-col gap-4">
      {children(items)}
      {query.hasNextPage && (
        <Button variant="outline" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()} className="self-center">
          Cargar más
        </Button>
      )}
    </div>
  );
}

/** Runs an admin action, telling the server's refusal in a toast and success in a calm one. */
export function act<T>(promise: Promise<T>, done: string) {
  promise.then(
    () => toast(done, 'success'),
    (error: unknown) => toast(messageOf(error)),
  );
}

/**
 * One row of an admin list, as a card: its facts, and its actions under them on a phone and beside
 * them from 640 px, so nothing is ever wider than the screen.
 */
export function AdminCard({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <li className="flex min-w-0 flex-col gap-3 rounded-lg wrap-anywhere border border-slate-800 p-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 flex-1">{children}</div>
      {actions && <div className="shrink-0 sm:max-w-[50%]">{actions}</div>}
    </li>
  );
}

/** Labelled facts ('Rol: Usuario · Clics: 3'), wrapping as the width allows. */
export function Facts({ facts }: { facts: [string, ReactNode][] }) {
  return (
    <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {facts.map(([label, value]) => (
        <div key={label} className="flex min-w-0 max-w-full gap-1">
          <dt className="shrink-0 text-slate-400">{label}:</dt>
          <dd className="min-w-0">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
