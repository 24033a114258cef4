import type { SignupStatus } from '@common/admin/admin-schemas';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

/**
 * Whether the register tab shows the form, needs an invitation, or says sign-up is closed; with an
 * invitation's code, also whether it can be used and the e-mail it is for.
 */
export const useSignupStatus = (invite?: string) =>
  useQuery({
    queryKey: ['signup', invite ?? null],
    queryFn: () => apiFetch<SignupStatus>(invite ? `/api/signup?${new URLSearchParams({ invite })}` : '/api/signup'),
    staleTime: 60_000,
  });
