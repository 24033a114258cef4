import type { AdminDomain } from '@common/domains/domain-schemas';
import type { AdminLink, AdminReport, AdminUser, AuditEntry, ReportState, Settings, SignupMode } from '@common/admin/admin-schemas';
import type { AdminWorkspace } from '@common/workspaces/workspace-schemas';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

// One file for the operator's calls: each list is paged by the server's nextCursor.

export const adminKeys = {
  all: ['admin'] as const,
  users: (q: string) => ['admin', 'users', q] as const,
  links: (q: string, owner: string) => ['admin', 'links', q, owner] as const,
  workspaces: (q: string) => ['admin', 'workspaces', q] as const,
  domains: (q: string) => ['admin', 'domains', q] as const,
  reports: (list: ReportList) => ['admin', 'reports', list] as const,
  reportsCount: ['admin', 'reports-count'] as const,
  settings: ['admin', 'settings'] as const,
  audit: ['admin', 'audit'] as const,
};

interface Page<K extends string, T> {
  nextCursor: number | null;
  items: T[];
  key?: K;
}

function pagedQuery<T>(key: readonly unknown[], path: (cursor: number | undefined) => string, field: string) {
  return {
    queryKey: key,
    initialPageParam: undefined as number | undefined,
    queryFn: async ({ pageParam }: { pageParam: number | undefined }): Promise<Page<string, T>> => {
      const body = await apiFetch<Record<string, unknown> & { nextCursor: number | null }>(path(pageParam));
      return { items: body[field] as T[], nextCursor: body.nextCursor };
    },
    getNextPageParam: (last: Page<string, T>) => last.nextCursor ?? undefined,
  };
}

const withQuery = (path: string, params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
};

export const useAdminUsers = (q: string) =>
  useInfiniteQuery(pagedQuery<AdminUser>(adminKeys.users(q), (cursor) => withQuery('/api/admin/users', { q, cursor }), 'users'));

export const useAdminLinks = (q: string, owner: string) =>
  useInfiniteQuery(pagedQuery<AdminLink>(adminKeys.links(q, owner), (cursor) => withQuery('/api/admin/links', { q, owner, cursor }), 'links'));

export const useAdminWorkspaces = (q: string) =>
  useInfiniteQuery(pagedQuery<AdminWorkspace>(adminKeys.workspaces(q), (cursor) => withQuery('/api/admin/workspaces', { q, cursor }), 'workspaces'));

export const useAdminDomains = (q: string) =>
  useInfiniteQuery(pagedQuery<AdminDomain>(adminKeys.domains(q), (cursor) => withQuery('/api/admin/domains', { q, cursor }), 'domains'));

/** Open reports, or the handled ones (resolved or dismissed) apart. */
export type ReportList = 'open' | 'handled';
export const useAdminReports = (list: ReportList) =>
  useInfiniteQuery(pagedQuery<AdminReport>(adminKeys.reports(list), (cursor) => withQuery('/api/admin/reports', { state: list, cursor }), 'reports'));

/** How many reports wait: beside 'Denuncias' in the admin's navigation. */
export const useOpenReportsCount = () =>
  useQuery({
    queryKey: adminKeys.reportsCount,
    queryFn: async () => (await apiFetch<{ open: number }>('/api/admin/reports/count')).open,
    refetchInterval: 60_000,
  });

export const useAudit = () =>
  useInfiniteQuery(pagedQuery<AuditEntry>(adminKeys.audit, (cursor) => withQuery('/api/admin/audit', { cursor }), 'entries'));

export const useSettings = () => useQuery({ queryKey: adminKeys.settings, queryFn: () => apiFetch<Settings>('/api/admin/settings') });

/** Every admin list is read again after any admin action: the audit log and counts change too. */
function useAdminMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }) });
}

export const useUpdateUser = () =>
  useAdminMutation(({ id, ...body }: { id: number; disabled?: boolean; role?: 'user' | 'admin'; reason?: string }) =>
    apiFetch<{ user: AdminUser }>(`/api/admin/users/${id}`, { method: 'PATCH', body: JSON.stringify(body) }),
  );

export const useDeleteUser = () => useAdminMutation((id: number) => apiFetch<void>(`/api/admin/users/${id}`, { method: 'DELETE' }));

/** A team workspace, its links and their statistics (a personal one is refused: it goes with its account). */
export const useDeleteWorkspace = () => useAdminMutation((id: number) => apiFetch<void>(`/api/admin/workspaces/${id}`, { method: 'DELETE' }));

export const useUpdateLink = () =>
  useAdminMutation(({ id, ...body }: { id: number; disabled: boolean; reason?: string }) =>
    apiFetch<{ link: AdminLink }>(`/api/admin/links/${id}`, { method: 'PATCH', body: JSON.stringify(body) }),
  );

/** Disables a domain (its links answer 410; the reason goes to the audit log) or enables it again. */
export const useUpdateDomain = () =>
  useAdminMutation(({ id, ...body }: { id: number; disabled: boolean; reason?: string }) =>
    apiFetch<{ domain: AdminDomain }>(`/api/admin/domains/${id}`, { method: 'PATCH', body: JSON.stringify(body) }),
  );

export const useUpdateReport = () =>
  useAdminMutation(({ id, state }: { id: number; state: ReportState }) =>
    apiFetch<{ report: AdminReport }>(`/api/admin/reports/${id}`, { method: 'PATCH', body: JSON.stringify({ state }) }),
  );

export const useSaveSettings = () =>
  useAdminMutation((body: { signup: SignupMode; blockedDomains: string[] }) =>
    apiFetch<Settings>('/api/admin/settings', { method: 'PUT', body: JSON.stringify(body) }),
  );

export const useCreateInvite = () =>
  useAdminMutation((body: { email?: string }) =>
    apiFetch<{ invite: { code: string; url: string; expiresAt: string; email: string | null } }>('/api/admin/invites', {
      method: 'POST',
      body: JSON.stringify(body),
    }),
  );

export const sendReport = (body: { address: string; reason: string; email: string }) =>
  apiFetch<{ received: true }>('/api/reports', { method: 'POST', body: JSON.stringify(body) });
