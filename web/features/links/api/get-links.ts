import type { LinkList, LinkStatus } from '@common/links/link-schemas';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { linkKeys } from './link-keys';

const PAGE_SIZE = 50;

/** One page of the caller's links, newest first; `search` filters titles on the server. */
export function getLinks(
  { search, cursor, status = '' }: { search: string; cursor: string | null; status?: LinkStatus | '' },
  signal?: AbortSignal,
) {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (search) params.set('q', search);
  if (status) params.set('status', status);
  if (cursor) params.set('cursor', cursor);
  return apiFetch<LinkList>(`/api/links?${params}`, { signal });
}

export function linksQueryOptions(search: string, status: LinkStatus | '' = '') {
  return infiniteQueryOptions({
    queryKey: linkKeys.list(search, status),
    queryFn: ({ pageParam, signal }) => getLinks({ search, cursor: pageParam, status }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // While a new filter loads, the previous results stay on screen instead of an empty list.
    placeholderData: keepPreviousData,
  });
}

/** Every loaded page of the caller's links (more load with fetchNextPage), and the totals. */
export function useLinks(search: string, status: LinkStatus | '' = '') {
  return useInfiniteQuery(linksQueryOptions(search, status));
}
