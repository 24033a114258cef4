import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { linkKeys } from './link-keys';

export function deleteLink(id: number) {
  return apiFetch<void>(`/api/links/${id}`, { method: 'DELETE' });
}

/** Deletes a link; every list is fetched again once it is gone. */
export function useDeleteLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLink,
    onSuccess: async (_data, id) => {
      queryClient.removeQueries({ queryKey: linkKeys.detail(id) });
      await Promise.all([queryClient.invalidateQueries({ queryKey: linkKeys.lists() }), queryClient.invalidateQueries({ queryKey: linkKeys.tags() })]);
    },
  });
}
