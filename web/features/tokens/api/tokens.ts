import type { CreatedToken, CreateTokenInput, RevokedTokens, TokenList } from '@common/tokens/token-schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { withWorkspace, type WorkspaceScope } from '../../workspaces/workspace-path';

// A token acts in the workspace it was created in: the page lists and makes the current workspace's.
export const tokenKeys = { all: ['tokens'] as const, of: (scope: WorkspaceScope) => ['tokens', scope] as const };

export function getTokens(scope: WorkspaceScope, signal?: AbortSignal) {
  return apiFetch<TokenList>(withWorkspace('/api/tokens', scope), { signal });
}

/** The current workspace's API tokens, newest first. */
export function useTokens() {
  const scope = useWorkspaceScope();
  return useQuery({ queryKey: tokenKeys.of(scope), queryFn: ({ signal }) => getTokens(scope, signal) });
}

export function createToken(input: CreateTokenInput, scope: WorkspaceScope = null) {
  return apiFetch<CreatedToken>(withWorkspace('/api/tokens', scope), { method: 'POST', body: JSON.stringify(input) });
}

/** Creates a token; the answer carries its secret, shown this once. */
export function useCreateToken() {
  const queryClient = useQueryClient();
  const scope = useWorkspaceScope();
  return useMutation({
    mutationFn: (input: CreateTokenInput) => createToken(input, scope),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}

export function revokeToken(id: number, scope: WorkspaceScope = null) {
  return apiFetch<void>(withWorkspace(`/api/tokens/${id}`, scope), { method: 'DELETE' });
}

/** Revokes a token: it stops working at once. */
export function useRevokeToken() {
  const queryClient = useQueryClient();
  const scope = useWorkspaceScope();
  return useMutation({
    mutationFn: (id: number) => revokeToken(id, scope),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}

export function revokeAllTokens() {
  return apiFetch<RevokedTokens>('/api/tokens', { method: 'DELETE' });
}

/** Revokes every token of the account at once (the account page's 'Revocar todos los tokens'). */
export function useRevokeAllTokens() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeAllTokens,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}
