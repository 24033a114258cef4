import { MutationCache, type Query, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { sessionQueryKey } from '../features/auth/api/session';

/**
 * A 401 from any call, a query's or a change's, means the session ended on the server (expired,
 * or closed elsewhere): forget the user and everything of theirs, so the top bar shows
 * 'Iniciar sesión' at once and the guard sends them to /auth, remembering where they were.
 */
function forgetUserOn401(error: unknown) {
  if (!(error instanceof ApiError && error.status === 401)) return;
  if (queryClient.getQueryData(sessionQueryKey) === null) return; // nobody was signed in (a wrong password)
  queryClient.removeQueries({ predicate: (query: Query) => query.queryKey[0] !== sessionQueryKey[0] });
  queryClient.setQueryData(sessionQueryKey, null);
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: forgetUserOn401 }),
  mutationCache: new MutationCache({ onError: forgetUserOn401 }),
  defaultOptions: {
    queries: {
      // Ask again only when it may help: no answer at all, or a 5xx. A 4xx will not fix itself,
      // and a server silent past the deadline would only keep the visitor waiting longer.
      retry: (failureCount, error) =>
        failureCount < 2 && (!(error instanceof ApiError) || error.code === 'network' || error.status >= 500),
      refetchOnWindowFocus: false,
    },
  },
});
