import type { SignupMode } from '@common/admin/admin-schemas';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

/** Whether the register tab shows the form, needs an invitation, or says sign-up is closed. */
export const useSignupStatus = () =>
  useQuery({ queryKey: ['signup'], queryFn: () => apiFetch<{ signup: SignupMode }>('/api/signup'), staleTime: 60_000 });
