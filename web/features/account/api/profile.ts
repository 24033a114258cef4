import type { ChangeEmailAnswer } from '@common/account/account-schemas';
import type { User } from '@common/auth/auth-schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

// The account page's writes; each answer with a user updates the session everyone reads.
const sessionQueryKey = ['auth', 'session'] as const;

function useUserWrite<T, A extends { user: User }>(write: (input: T) => Promise<A>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: write, onSuccess: ({ user }) => queryClient.setQueryData(sessionQueryKey, user) });
}

export const useUpdateName = () =>
  useUserWrite((input: { name: string }) => apiFetch<{ user: User }>('/api/account', { method: 'PATCH', body: JSON.stringify(input) }));

export const useUpdatePicture = () =>
  useUserWrite((file: File) => {
    const form = new FormData();
    form.append('profileImage', file);
    return apiFetch<{ user: User }>('/api/account/picture', { method: 'PUT', body: form });
  });

/** With mail (202), the answer's user is unchanged and `pendingEmail` waits for its link; without, the address changed. */
export const useChangeEmail = () =>
  useUserWrite((input: { email: string; password: string }) =>
    apiFetch<ChangeEmailAnswer>('/api/account/email', { method: 'POST', body: JSON.stringify(input) }),
  );

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) =>
      apiFetch<void>('/api/account/password', { method: 'POST', body: JSON.stringify(input) }),
    // The other sessions are gone now.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account', 'sessions'] }),
  });
}

export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { password: string }) => apiFetch<void>('/api/account', { method: 'DELETE', body: JSON.stringify(input) }),
    onSuccess: () => {
      queryClient.clear();
      queryClient.setQueryData(sessionQueryKey, null);
    },
  });
}
