import type { ActivityEntry } from '@common/workspaces/workspace-schemas';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { slugPath, workspaceKeys } from './workspace-keys';

const PAGE_SIZE = 50;

export interface ActivityPage {
  entries: ActivityEntry[];
  nextCursor: string | null;
}

export function getActivity(slug: string, cursor: string | null, signal?: AbortSignal) {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (cursor) params.set('cursor', cursor);
  return apiFetch<ActivityPage>(`${slugPath(slug)}/activity?${params}`, { signal });
}

export function activityQueryOptions(slug: string) {
  return infiniteQueryOptions({
    queryKey: workspaceKeys.activity(slug),
    queryFn: ({ pageParam, signal }) => getActivity(slug, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** Who did what in the workspace, newest first, a page at a time («Cargar más»). */
export function useActivity(slug: string) {
  return useInfiniteQuery(activityQueryOptions(slug));
}
