import type { Link } from '@common/links/link-schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { withWorkspace, type WorkspaceScope } from '../../workspaces/workspace-path';
import { linkKeys } from './link-keys';

export function getLink(id: number, scope: WorkspaceScope, signal?: AbortSignal) {
  return apiFetch<{ link: Link }>(withWorkspace(`/api/links/${id}`, scope), { signal }).then((body) => body.link);
}

export function linkQueryOptions(id: number, scope: WorkspaceScope) {
  return queryOptions({ queryKey: linkKeys.detail(id), queryFn: ({ signal }) => getLink(id, scope, signal) });
}

/** One of the current workspace's links; another workspace's or a missing one fails with a 404 ApiError. */
export function useLink(id: number) {
  return useQuery(linkQueryOptions(id, useWorkspaceScope()));
}
