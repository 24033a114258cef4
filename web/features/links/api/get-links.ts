import type { LinkList, LinkSort, LinkStatus, SortOrder } from '@common/links/link-schemas';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { withWorkspace, type WorkspaceScope } from '../../workspaces/workspace-path';
import { linkKeys } from './link-keys';

const PAGE_SIZE = 50;

/** What the dashboard asks for: every part optional, the server's defaults otherwise (newest first). */
export interface LinkListFilter {
  /** The workspace whose links these are (the personal one when absent or null). */
  workspace?: WorkspaceScope;
  /** Only the links this member created. */
  createdBy?: number | undefined;
  search?: string;
  status?: LinkStatus | '';
  tag?: string;
  /** Only the links on this domain (a hostname; the instance's own host for the links without one). */
  domain?: string;
  sort?: LinkSort;
  order?: SortOrder;
}

/** One page of the caller's links (PAGE_SIZE of them unless told), filtered and sorted on the server. */
export function getLinks(
  { workspace = null, createdBy, search, status, tag, domain, sort, order }: LinkListFilter,
  cursor: string | null,
  signal?: AbortSignal,
  limit = PAGE_SIZE,
) {
  const params = new URLSearchParams({ limit: String(limit) });
  if (createdBy !== undefined) params.set('createdBy', String(createdBy));
  if (search) params.set('q', search);
  if (status) params.set('status', status);
  if (tag) params.set('tag', tag);
  if (domain) params.set('domain', domain);
  if (sort) params.set('sort', sort);
  if (order) params.set('order', order);
  if (cursor) params.set('cursor', cursor);
  return apiFetch<LinkList>(withWorkspace(`/api/links?${params}`, workspace), { signal });
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

/** Every loaded page of the current workspace's links (more load with fetchNextPage), and the totals. */
export function useLinks(filter: Omit<LinkListFilter, 'workspace'> = {}) {
  const workspace = useWorkspaceScope();
  return useInfiniteQuery(linksQueryOptions({ workspace, ...filter }));
}
