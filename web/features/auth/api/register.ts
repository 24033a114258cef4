import type { RegisterFields, User } from '@common/auth/auth-schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { sessionQueryKey } from './session';

export type RegisterInput = RegisterFields & { profileImage: File; invite?: string };

export function register({ name, email, password, profileImage, invite }: RegisterInput) {
  const form = new FormData();
  form.append('name', name);
  form.append('email', email);
  form.append('password', password);
  if (invite) form.append('invite', invite);
  form.append('profileImage', profileImage, profileImage.name);
  // A picture on a slow phone connection may take a while: a longer deadline than other calls.
  return apiFetch<{ user: User }>('/api/auth/register', { method: 'POST', body: form, timeoutMs: 120_000 });
}

/** Creates the account; the server signs the new user in at once. */
export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: ({ user }) => queryClient.setQueryData(sessionQueryKey, user),
  });
}
