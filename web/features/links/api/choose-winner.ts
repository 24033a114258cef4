import type { Link } from '@common/links/link-schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { withWorkspace, type WorkspaceScope } from '../../workspaces/workspace-path';
import { linkKeys } from './link-keys';

type Winner = { id: number; index: number };

/** «Elegir ganador»: the variant's URL becomes the link's destination and the test ends. */
export function chooseWinner({ id, index }: Winner, scope: WorkspaceScope = null) {
  return apiFetch<{ link: Link }>(withWorkspace(`/api/links/${id}/variants/${index}/winner`, scope), { method: 'POST' }).then((body) => body.link);
}

export function useChooseWinner() {
  const queryClient = useQueryClient();
  const scope = useWorkspaceScope();
  return useMutation({
    mutationFn: (winner: Winner) => chooseWinner(winner, scope),
    onSuccess: async (link) => {
      queryClient.setQueryData(linkKeys.detail(link.id), link);
      // The lists show the test's badge; the detail's stats stop showing it as running.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: linkKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: [...linkKeys.detail(link.id), 'stats'] }),
      ]);
    },
  });
}
