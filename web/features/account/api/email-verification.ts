import type { EmailVerificationStatus } from '@common/account/account-schemas';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

export const emailVerificationQueryKey = ['account', 'email-verification'] as const;

export const useEmailVerification = () =>
  useQuery(
    queryOptions({
      queryKey: emailVerificationQueryKey,
      queryFn: () => apiFetch<EmailVerificationStatus>('/api/account/email/verification'),
    }),
  );

/** 'Verificar mi email': mails a link to the account's address. */
export const useSendVerification = () =>
  useMutation({ mutationFn: () => apiFetch<{ message: string }>('/api/account/email/verification', { method: 'POST' }) });

/** The mailed link's page: the address is verified (and, if ADMIN_EMAILS lists it, the account is now an admin). */
export function useConfirmVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { token: string }) =>
      apiFetch<{ message: string }>('/api/auth/email-verification/confirm', { method: 'POST', body: JSON.stringify(input) }),
    // The role may have changed, and the account page's state has.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['auth', 'session'] }),
        queryClient.invalidateQueries({ queryKey: emailVerificationQueryKey }),
      ]),
  });
}

/** 'Reenviar' for a change of address waiting: another link to the new address. */
export const useResendEmailChange = () =>
  useMutation({ mutationFn: () => apiFetch<{ message: string }>('/api/account/email/pending/resend', { method: 'POST' }) });

/** 'Cancelar' a change of address waiting: its link stops working, the account keeps its address. */
export function useCancelEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<void>('/api/account/email/pending', { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailVerificationQueryKey }),
  });
}
