import type { LinkList, LinkSort, LinkStatus, SortOrder } from '@common/links/link-schemas';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { linkKeys } from './link-keys';

const PAGE_SIZE = 50;

/** What the dashboard asks for: every part optional, the server's defaults otherwise (newest first). */
export interface LinkListFilter {
  search?: string;
  status?: LinkStatus | '';
  tag?: string;
  sort?: LinkSort;
  order?: SortOrder;
}

/** One page of the caller's links (PAGE_SIZE of them unless told), filtered and sorted on the server. */
export function getLinks({ search, status, tag, sort, order }: LinkListFilter, cursor: string | null, signal?: AbortSignal, limit = PAGE_SIZE) {
  const params = new URLSearchParams({ limit: String(limit) });
  if (search) params.set('q', search);
  if (status) params.set('status', status);
  if (tag) params.set('tag', tag);
  if (sort) params.set('sort', sort);
  if (order) params.set('order', order);
  if (cursor) params.set('cursor', cursor);
  return apiFetch<LinkList>(`/api/links?${params}`, { signal });
}

export function linksQueryOptions(filter: LinkListFilter = {}) {
  return infiniteQueryOptions({
    queryKey: linkKeys.list(filter),
    queryFn: ({ pageParam, signal }) => getLinks(filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // While a new filter loads, the previous results stay on screen instead of an empty list.
    placeholderData: keepPreviousData,
  });
}

/** Every loaded page of the caller's links (more load with fetchNextPage), and the totals. */
export function useLinks(filter: LinkListFilter = {}) {
  return useInfiniteQuery(linksQueryOptions(filter));
}
