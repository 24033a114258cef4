import type { Link, UpdateLinkInput } from '@common/links/link-schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { withWorkspace, type WorkspaceScope } from '../../workspaces/workspace-path';
import { linkKeys } from './link-keys';

/**
 * A PATCH body; `domain` moves the link to another of the workspace's domains (null: the instance's
 * own host); rules, variants and redirectType as the API takes them.
 */
export type LinkChanges = UpdateLinkInput;
type LinkChange = { id: number; changes: LinkChanges };
type AddressToFree = { id: number; address: string };

export function updateLink({ id, changes }: LinkChange, scope: WorkspaceScope = null) {
  return apiFetch<{ link: Link }>(withWorkspace(`/api/links/${id}`, scope), { method: 'PATCH', body: JSON.stringify(changes) }).then(
    (body) => body.link,
  );
}

export function freeAddress({ id, address }: AddressToFree, scope: WorkspaceScope = null) {
  return apiFetch<void>(withWorkspace(`/api/links/${id}/addresses/${encodeURIComponent(address)}`, scope), { method: 'DELETE' });
}

/** Saves an edit; the detail shows the answer at once and the lists refresh. */
export function useUpdateLink() {
  const queryClient = useQueryClient();
  const scope = useWorkspaceScope();
  return useMutation({
    mutationFn: (change: LinkChange) => updateLink(change, scope),
    onSuccess: async (link) => {
      queryClient.setQueryData(linkKeys.detail(link.id), link);
      await Promise.all([queryClient.invalidateQueries({ queryKey: linkKeys.lists() }), queryClient.invalidateQueries({ queryKey: linkKeys.tags() })]);
    },
  });
}

/** Frees a former alias of a link: it stops redirecting and anyone may take it. */
export function useFreeAddress() {
  const queryClient = useQueryClient();
  const scope = useWorkspaceScope();
  return useMutation({
    mutationFn: (address: AddressToFree) => freeAddress(address, scope),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: linkKeys.all }),
  });
}
