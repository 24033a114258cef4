import type { LoginInput, User } from '@common/auth/auth-schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { sessionQueryKey } from './session';

export function login(input: LoginInput) {
  return apiFetch<{ user: User }>('/api/auth/login', { method: 'POST', body: JSON.stringify(input) });
}

/** Signs in; on success the session everyone reads holds the user. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: ({ user }) => queryClient.setQueryData(sessionQueryKey, user),
  });
}
