import type { CreateWorkspaceInput, UpdateWorkspaceInput, Workspace } from '@common/workspaces/workspace-schemas';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { slugPath, workspaceKeys } from './workspace-keys';

export function getWorkspaces(signal?: AbortSignal) {
  return apiFetch<{ workspaces: Workspace[] }>('/api/workspaces', { signal }).then((body) => body.workspaces);
}

export const workspacesQueryOptions = queryOptions({
  queryKey: workspaceKeys.list(),
  queryFn: ({ signal }) => getWorkspaces(signal),
  // Asked by the top bar and by every workspace screen: once a minute is plenty.
  staleTime: 60_000,
});

/** The workspaces the caller belongs to, the personal one among them, with their role in each. */
export function useWorkspaces() {
  return useQuery(workspacesQueryOptions);
}

export function createWorkspace(input: CreateWorkspaceInput) {
  return apiFetch<{ workspace: Workspace }>('/api/workspaces', { method: 'POST', body: JSON.stringify(input) }).then((body) => body.workspace);
}

/** Creates a team workspace, the caller its owner; the switcher lists it at once. */
export function useCreateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWorkspace,
    onSuccess: (workspace) => {
      queryClient.setQueryData<Workspace[]>(workspaceKeys.list(), (list) => (list ? [...list, workspace] : [workspace]));
      return queryClient.invalidateQueries({ queryKey: workspaceKeys.list() });
    },
  });
}

export function updateWorkspace({ slug, changes }: { slug: string; changes: UpdateWorkspaceInput }) {
  return apiFetch<{ workspace: Workspace }>(slugPath(slug), { method: 'PATCH', body: JSON.stringify(changes) }).then((body) => body.workspace);
}

/** Renames a workspace or changes its slug (owners only). */
export function useUpdateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWorkspace,
    onSuccess: (workspace, { slug }) => {
      queryClient.setQueryData<Workspace[]>(workspaceKeys.list(), (list) => list?.map((known) => (known.slug === slug ? workspace : known)));
      return queryClient.invalidateQueries({ queryKey: workspaceKeys.list() });
    },
  });
}

export function deleteWorkspace({ slug, password }: { slug: string; password: string }) {
  return apiFetch<void>(slugPath(slug), { method: 'DELETE', body: JSON.stringify({ password }) });
}

/** Deletes a team workspace (owners only, with their password): its links stop at once. */
export function useDeleteWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWorkspace,
    onSuccess: (_data, { slug }) => {
      queryClient.setQueryData<Workspace[]>(workspaceKeys.list(), (list) => list?.filter((known) => known.slug !== slug));
      queryClient.removeQueries({ queryKey: workspaceKeys.one(slug) });
    },
  });
}
