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

export const tableClass = 'w-full text-left text-sm [&_td]:border-t [&_td]:border-slate-800 [&_td]:px-2 [&_td]:py-2 [&_th]:px-2 [&_th]:py-1 [&_th]:text-slate-400';
