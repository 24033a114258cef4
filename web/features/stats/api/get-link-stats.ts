import type { LinkStats, StatsRange } from '@common/stats/stats-schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { withWorkspace, type WorkspaceScope } from '../../workspaces/workspace-path';

// Under the link's own key (['links', 'detail', id]): refreshing a link refreshes its stats.
export const statsKey = (id: number, range: StatsRange) => ['links', 'detail', id, 'stats', range] as const;

export function getLinkStats(id: number, range: StatsRange, scope: WorkspaceScope, signal?: AbortSignal) {
  return apiFetch<LinkStats>(withWorkspace(`/api/links/${id}/stats?range=${range}`, scope), { signal });
}

export function linkStatsQueryOptions(id: number, range: StatsRange, scope: WorkspaceScope) {
  return queryOptions({
    queryKey: statsKey(id, range),
    queryFn: ({ signal }) => getLinkStats(id, range, scope, signal),
    // Changing the period keeps the previous figures on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}

/** The link's aggregates for a period; only mounted once the link itself has loaded. */
export function useLinkStats(id: number, range: StatsRange) {
  return useQuery(linkStatsQueryOptions(id, range, useWorkspaceScope()));
}

/** Where the browser downloads the link's clicks as CSV. */
export const clicksCsvPath = (id: number, scope: WorkspaceScope) => withWorkspace(`/api/links/${id}/clicks.csv`, scope);
