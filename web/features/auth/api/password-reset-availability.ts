import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

/** Whether this server can mail a reset link (SMTP_URL set): '¿Olvidaste tu contraseña?' only then. */
export const passwordResetAvailability = queryOptions({
  queryKey: ['auth', 'password-reset'],
  queryFn: async () => (await apiFetch<{ available: boolean }>('/api/auth/password-reset')).available,
  staleTime: Infinity,
});

export const usePasswordResetAvailable = () => useQuery(passwordResetAvailability).data === true;
