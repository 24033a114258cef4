import type { User } from '@common/auth/auth-schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../api/client';

export const sessionQueryKey = ['auth', 'session'] as const;

/** The signed-in user, or null: a 401 means "nobody", not a failure. */
export async function fetchSession(): Promise<User | null> {
  try {
    return (await apiFetch<{ user: User }>('/api/auth/session')).user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
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
