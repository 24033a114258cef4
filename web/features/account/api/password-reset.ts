import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

export const useRequestReset = () =>
  useMutation({
    mutationFn: (input: { email: string }) =>
      apiFetch<{ message: string }>('/api/auth/password-reset', { method: 'POST', body: JSON.stringify(input) }),
  });

export const useConfirmReset = () =>
  useMutation({
    mutationFn: (input: { token: string; password: string }) =>
      apiFetch<void>('/api/auth/password-reset/confirm', { method: 'POST', body: JSON.stringify(input) }),
  });
