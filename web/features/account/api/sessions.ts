import type { Session } from '@common/account/account-schemas';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

export const sessionsQueryKey = ['account', 'sessions'] as const;

export const sessionsQueryOptions = queryOptions({
  queryKey: sessionsQueryKey,
  queryFn: async () => (await apiFetch<{ sessions: Session[] }>('/api/account/sessions')).sessions,
});

export const useSessions = () => useQuery(sessionsQueryOptions);

/** 'Cerrar' on one session (an id), or 'Cerrar las demás' (no id). */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | undefined) =>
      apiFetch<void>(id ? `/api/account/sessions/${encodeURIComponent(id)}` : '/api/account/sessions', { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
