import type { AuthConfig } from '@common/auth/oidc-messages';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

/** How this server is entered: the company provider's button (OIDC_LABEL) and whether passwords are. */
export const authConfigQuery = queryOptions({
  queryKey: ['auth', 'config'],
  queryFn: () => apiFetch<AuthConfig>('/api/auth/config'),
  staleTime: Infinity,
});

export const useAuthConfig = () => useQuery(authConfigQuery);
