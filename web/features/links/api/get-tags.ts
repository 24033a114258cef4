import type { TagList } from '@common/links/link-schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { withWorkspace, type WorkspaceScope } from '../../workspaces/workspace-path';
import { linkKeys } from './link-keys';

/** The workspace's tags with how many links carry each. */
export function getTags(scope: WorkspaceScope, signal?: AbortSignal) {
  return apiFetch<TagList>(withWorkspace('/api/tags', scope), { signal });
}

export function tagsQueryOptions(scope: WorkspaceScope) {
  return queryOptions({ queryKey: linkKeys.tags(scope), queryFn: ({ signal }) => getTags(scope, signal) });
}

/** The current workspace's tags. */
export function useTags() {
  return useQuery(tagsQueryOptions(useWorkspaceScope()));
}
