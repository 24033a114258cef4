import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { withWorkspace, type WorkspaceScope } from '../../workspaces/workspace-path';
import { linkKeys } from './link-keys';

export function deleteLink(id: number, scope: WorkspaceScope = null) {
  return apiFetch<void>(withWorkspace(`/api/links/${id}`, scope), { method: 'DELETE' });
}

/** Deletes a link of the current workspace; every list is fetched again once it is gone. */
export function useDeleteLink() {
  const queryClient = useQueryClient();
  const scope = useWorkspaceScope();
  return useMutation({
    mutationFn: (id: number) => deleteLink(id, scope),
    onSuccess: async (_data, id) => {
      queryClient.removeQueries({ queryKey: linkKeys.detail(id) });
      await Promise.all([queryClient.invalidateQueries({ queryKey: linkKeys.lists() }), queryClient.invalidateQueries({ queryKey: linkKeys.tags() })]);
    },
  });
}
