import type { AccountOidc } from '@common/auth/oidc-messages';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

/** The company provider linked to the account, and whether the account has a password. */
export const accountOidcQuery = queryOptions({
  queryKey: ['account', 'oidc'],
  queryFn: () => apiFetch<AccountOidc>('/api/account/oidc'),
});

export const useAccountOidc = () => useQuery(accountOidcQuery);

export function useUnlinkOidc() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<void>('/api/account/oidc', { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountOidcQuery.queryKey }),
  });
}
