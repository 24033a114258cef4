import type { TotpSetup } from '@common/account/account-schemas';
import type { User } from '@common/auth/auth-schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

const sessionQueryKey = ['auth', 'session'] as const;

export const useStartTotp = () => useMutation({ mutationFn: () => apiFetch<TotpSetup>('/api/account/totp', { method: 'POST' }) });

/** Confirms the set-up; the user now has two-factor on. */
export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { code: string }) =>
      apiFetch<{ recoveryCodes: string[] }>('/api/account/totp/confirm', { method: 'POST', body: JSON.stringify(input) }),
    onSuccess: () => queryClient.setQueryData(sessionQueryKey, (user: User | null | undefined) => (user ? { ...user, totp: true } : user)),
  });
}

export function useDisableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { password: string; code: string }) => apiFetch<void>('/api/account/totp', { method: 'DELETE', body: JSON.stringify(input) }),
    onSuccess: () => queryClient.setQueryData(sessionQueryKey, (user: User | null | undefined) => (user ? { ...user, totp: false } : user)),
  });
}
