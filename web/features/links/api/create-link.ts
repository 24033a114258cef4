import type { CreateLink, Link } from '@common/links/link-schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { linkKeys } from './link-keys';

export function createLink(input: CreateLink) {
  return apiFetch<{ link: Link }>('/api/links', { method: 'POST', body: JSON.stringify(input) }).then(
    (body) => body.link,
  );
}

/** Creates a link; the lists refresh and the new link's detail is already known. */
export function useCreateLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLink,
    onSuccess: async (link) => {
      queryClient.setQueryData(linkKeys.detail(link.id), link);
      await queryClient.invalidateQueries({ queryKey: linkKeys.lists() });
    },
  });
}
