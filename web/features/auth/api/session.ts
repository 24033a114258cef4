import type { User } from '@common/auth/auth-schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

export const sessionQueryKey = ['auth', 'session'] as const;

/** The signed-in user, or null for nobody (the server answers 200 { user: null }, never a 401). */
export async function fetchSession(): Promise<User | null> {
  return (await apiFetch<{ user: User | null }>('/api/auth/session')).user;
}

export const sessionQueryOptions = queryOptions({
  queryKey: sessionQueryKey,
  queryFn: fetchSession,
  staleTime: 5 * 60 * 1000,
});

export interface Session {
  user: User | null;
  /** True until the first answer (or failure) for this app load. */
  isLoading: boolean;
  isAuthenticated: boolean;
}

/** The session, loaded once at app start and shared by the top bar, the guard and /auth. */
export function useSession(): Session {
  const query = useQuery(sessionQueryOptions);
  const user = query.data ?? null;
  return { user, isLoading: query.isPending && query.fetchStatus !== 'idle', isAuthenticated: user !== null };
}
