import type { Link, UpdateLinkInput } from '@common/links/link-schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { linkKeys } from './link-keys';

export function updateLink({ id, changes }: { id: number; changes: UpdateLinkInput }) {
  return apiFetch<{ link: Link }>(`/api/links/${id}`, { method: 'PATCH', body: JSON.stringify(changes) }).then((body) => body.link);
}

export function freeAddress({ id, address }: { id: number; address: string }) {
  return apiFetch<void>(`/api/links/${id}/addresses/${encodeURIComponent(address)}`, { method: 'DELETE' });
}

/** Saves an edit; the detail shows the answer at once and the lists refresh. */
export function useUpdateLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLink,
    onSuccess: async (link) => {
      queryClient.setQueryData(linkKeys.detail(link.id), link);
      await Promise.all([queryClient.invalidateQueries({ queryKey: linkKeys.lists() }), queryClient.invalidateQueries({ queryKey: linkKeys.tags() })]);
    },
  });
}

/** Frees a former alias of a link: it stops redirecting and anyone may take it. */
export function useFreeAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: freeAddress,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: linkKeys.all }),
  });
}
