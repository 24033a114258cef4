import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../api/client';
import { sessionQueryKey } from './session';

export const logoutMutationKey = ['auth', 'logout'] as const;

// The session is already gone (or never was) on the server: forget it here too.
const SESSION_ALREADY_GONE = new Set([401, 403, 404]);

export async function logout(): Promise<void> {
  try {
    const answer = await apiFetch<{ endSessionUrl?: string } | undefined>('/api/auth/logout', { method: 'POST' });
    // A session the company's provider opened: its own session ends there too, and it sends the
    // browser back to Corto's front page.
    if (answer?.endSessionUrl) window.location.assign(answer.endSessionUrl);
  } catch (error) {
    if (!(error instanceof ApiError && SESSION_ALREADY_GONE.has(error.status))) throw error;
  }
}

/** Ends the session, then clears every cached answer that belonged to the user. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: logoutMutationKey,
    mutationFn: logout,
    onSuccess: () => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
      queryClient.setQueryData(sessionQueryKey, null);
    },
  });
}
