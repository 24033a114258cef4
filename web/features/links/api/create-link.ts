import type { CreateLink, Link } from '@common/links/link-schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { withWorkspace, type WorkspaceScope } from '../../workspaces/workspace-path';
import { linkKeys } from './link-keys';

export const createLinkMutationKey = ['links', 'create'] as const;

export interface CreateLinkCall {
  input: CreateLink;
  /** The same key for a retry of the same creation: the server then never makes a second link. */
  idempotencyKey: string;
}

export function createLink({ input, idempotencyKey }: CreateLinkCall, scope: WorkspaceScope = null) {
  return apiFetch<{ link: Link }>(withWorkspace('/api/links', scope), { method: 'POST', body: JSON.stringify(input), idempotencyKey }).then(
    (body) => body.link,
  );
}

/** A fresh Idempotency-Key (getRandomValues works on plain http too, randomUUID does not). */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Creates a link in the current workspace; the lists refresh and the new link's detail is already known. */
export function useCreateLink() {
  const queryClient = useQueryClient();
  const scope = useWorkspaceScope();
  return useMutation({
    mutationKey: createLinkMutationKey,
    mutationFn: (call: CreateLinkCall) => createLink(call, scope),
    onSuccess: async (link) => {
      queryClient.setQueryData(linkKeys.detail(link.id), link);
      await Promise.all([queryClient.invalidateQueries({ queryKey: linkKeys.lists() }), queryClient.invalidateQueries({ queryKey: linkKeys.tags() })]);
    },
  });
}
