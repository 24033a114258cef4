import type { CreatedToken, CreateTokenInput, RevokedTokens, TokenList } from '@common/tokens/token-schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

export const tokenKeys = { all: ['tokens'] as const };

export function getTokens(signal?: AbortSignal) {
  return apiFetch<TokenList>('/api/tokens', { signal });
}

/** The signed-in user's API tokens, newest first. */
export function useTokens() {
  return useQuery({ queryKey: tokenKeys.all, queryFn: ({ signal }) => getTokens(signal) });
}

export function createToken(input: CreateTokenInput) {
  return apiFetch<CreatedToken>('/api/tokens', { method: 'POST', body: JSON.stringify(input) });
}

/** Creates a token; the answer carries its secret, shown this once. */
export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}

export function revokeToken(id: number) {
  return apiFetch<void>(`/api/tokens/${id}`, { method: 'DELETE' });
}

/** Revokes a token: it stops working at once. */
export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeToken,
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
