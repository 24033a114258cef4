import type { Link } from '@common/links/link-schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { withWorkspace } from '../../workspaces/workspace-path';
import { linkKeys } from './link-keys';

/** The preview image's writes: saved at once (not with «Guardar»); the detail shows the answer and the lists refresh. */
function usePreviewImageWrite<T>(write: (input: T, path: (id: number) => string) => Promise<{ link: Link }>) {
  const queryClient = useQueryClient();
  const scope = useWorkspaceScope();
  return useMutation({
    mutationFn: (input: T) => write(input, (id) => withWorkspace(`/api/links/${id}/preview-image`, scope)).then((body) => body.link),
    onSuccess: async (link) => {
      queryClient.setQueryData(linkKeys.detail(link.id), link);
      await queryClient.invalidateQueries({ queryKey: linkKeys.lists() });
    },
  });
}

export const useSetPreviewImage = () =>
  usePreviewImageWrite(({ id, file }: { id: number; file: File }, path) => {
    const form = new FormData();
    form.append('image', file);
    return apiFetch<{ link: Link }>(path(id), { method: 'PUT', body: form });
  });

export const useRemovePreviewImage = () => usePreviewImageWrite((id: number, path) => apiFetch<{ link: Link }>(path(id), { method: 'DELETE' }));
