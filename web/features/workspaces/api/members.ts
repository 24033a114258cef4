import type { WorkspaceRole } from '@common/workspaces/workspace-roles';
import type { Member, Workspace } from '@common/workspaces/workspace-schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { slugPath, workspaceKeys } from './workspace-keys';

export function getMembers(slug: string, signal?: AbortSignal) {
  return apiFetch<{ members: Member[] }>(`${slugPath(slug)}/members`, { signal }).then((body) => body.members);
}

/** The workspace's members with their roles (any member may see them). */
export function useMembers(slug: string | null) {
  return useQuery({
    queryKey: workspaceKeys.members(slug ?? ''),
    queryFn: ({ signal }) => getMembers(slug!, signal),
    enabled: slug !== null,
  });
}

const memberPath = (slug: string, userId: number) => `${slugPath(slug)}/members/${userId}`;

export function changeMemberRole({ slug, userId, role }: { slug: string; userId: number; role: WorkspaceRole }) {
  return apiFetch<unknown>(memberPath(slug, userId), { method: 'PATCH', body: JSON.stringify({ role }) });
}

/** Gives a member another role; the members and the activity are read again. */
export function useChangeMemberRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeMemberRole,
    onSettled: (_data, _error, { slug }) => queryClient.invalidateQueries({ queryKey: workspaceKeys.one(slug) }),
  });
}

export function removeMember({ slug, userId }: { slug: string; userId: number }) {
  return apiFetch<void>(memberPath(slug, userId), { method: 'DELETE' });
}

/** Takes a member out of the workspace; their links stay in it. */
export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSettled: (_data, _error, { slug }) => queryClient.invalidateQueries({ queryKey: workspaceKeys.one(slug) }),
  });
}

/** Leaves a workspace (removing oneself): it drops out of the switcher. */
export function useLeaveWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSuccess: (_data, { slug }) => {
      queryClient.setQueryData<Workspace[]>(workspaceKeys.list(), (list) => list?.filter((known) => known.slug !== slug));
      queryClient.removeQueries({ queryKey: workspaceKeys.one(slug) });
    },
  });
}
