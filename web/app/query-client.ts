import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { sessionQueryKey } from '../features/auth/api/session';

export const queryClient = new QueryClient({
  // A 401 from any screen's call means the session ended on the server (expired, or closed
  // elsewhere): forget the user, and the guard sends them to /auth.
  queryCache: new QueryCache({
    onError: (error) => {
      if (error instanceof ApiError && error.status === 401) queryClient.setQueryData(sessionQueryKey, null);
    },
  }),
  defaultOptions: {
    queries: {
      // A 4xx will not fix itself by asking again.
      retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 2,
      refetchOnWindowFocus: false,
    },
  },
});
