import type { LoginAnswer } from '@common/account/account-schemas';
import type { LoginInput, User } from '@common/auth/auth-schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { sessionQueryKey } from './session';

export function login(input: LoginInput) {
  return apiFetch<LoginAnswer>('/api/auth/login', { method: 'POST', body: JSON.stringify(input) });
}

/** The second step of a login that answered { totpRequired: true }. */
export function loginCode(input: { code: string }) {
  return apiFetch<{ user: User }>('/api/auth/totp', { method: 'POST', body: JSON.stringify(input) });
}

/** Signs in; on success the session everyone reads holds the user (unless a code is asked next). */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (answer) => {
      if ('user' in answer) queryClient.setQueryData(sessionQueryKey, answer.user);
    },
  });
}

export function useLoginCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: loginCode,
    onSuccess: ({ user }) => queryClient.setQueryData(sessionQueryKey, user),
  });
}
