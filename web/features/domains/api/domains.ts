import type { AddDomainInput, Domain, DomainList, UpdateDomainInput } from '@common/domains/domain-schemas';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { linkKeys } from '../../links/api/link-keys';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { withWorkspace, type WorkspaceScope } from '../../workspaces/workspace-path';

// The workspace's own domains (docs/domains.md): listed by any member, managed by admins and owners.

export const domainKeys = {
  all: ['domains'] as const,
  list: (scope: WorkspaceScope) => [...domainKeys.all, 'list', scope] as const,
};

export function getDomains(scope: WorkspaceScope, signal?: AbortSignal) {
  return apiFetch<DomainList>(withWorkspace('/api/domains', scope), { signal });
}

export function domainsQueryOptions(scope: WorkspaceScope) {
  return queryOptions({
    queryKey: domainKeys.list(scope),
    queryFn: ({ signal }) => getDomains(scope, signal),
    // Asked by the dashboard and the link dialogs too: domains change rarely.
    staleTime: 60_000,
  });
}

/** The current workspace's domains, the instance's own host and how many the workspace may add. */
export function useDomains() {
  return useQuery(domainsQueryOptions(useWorkspaceScope()));
}

const domainPath = (id: number, scope: WorkspaceScope, action = '') => withWorkspace(`/api/domains/${id}${action}`, scope);

/** Replaces one domain in the cached list with the server's answer. */
function useDomainAnswer() {
  const queryClient = useQueryClient();
  const scope = useWorkspaceScope();
  return (domain: Domain) =>
    queryClient.setQueryData<DomainList>(domainKeys.list(scope), (list) =>
      list && { ...list, domains: list.domains.some((known) => known.id === domain.id) ? list.domains.map((known) => (known.id === domain.id ? domain : known)) : [...list.domains, domain] },
    );
}

/** Every change reads the list again (and the links' lists: a domain's links and filter change with it). */
function useRefreshDomains() {
  const queryClient = useQueryClient();
  const scope = useWorkspaceScope();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: domainKeys.list(scope) }), queryClient.invalidateQueries({ queryKey: linkKeys.lists() })]);
}

export function useAddDomain() {
  const scope = useWorkspaceScope();
  const answer = useDomainAnswer();
  const refresh = useRefreshDomains();
  return useMutation({
    mutationFn: (input: AddDomainInput) =>
      apiFetch<{ domain: Domain }>(withWorkspace('/api/domains', scope), { method: 'POST', body: JSON.stringify(input) }).then((body) => body.domain),
    onSuccess: (domain) => {
      answer(domain);
      return refresh();
    },
  });
}

/** Looks the TXT record up: the verified domain, or a 409 saying what was found. */
export function useVerifyDomain() {
  const scope = useWorkspaceScope();
  const answer = useDomainAnswer();
  const refresh = useRefreshDomains();
  return useMutation({
    mutationFn: (id: number) => apiFetch<{ domain: Domain }>(domainPath(id, scope, '/verify'), { method: 'POST' }).then((body) => body.domain),
    onSuccess: (domain) => {
      answer(domain);
      return refresh();
    },
  });
}

/** Where the domain's `/` and unknown codes send visitors (null: Corto's own page). */
export function useUpdateDomain() {
  const scope = useWorkspaceScope();
  const answer = useDomainAnswer();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: UpdateDomainInput }) =>
      apiFetch<{ domain: Domain }>(domainPath(id, scope), { method: 'PATCH', body: JSON.stringify(changes) }).then((body) => body.domain),
    onSuccess: answer,
  });
}

/** Removes a domain no link uses (409 with how many otherwise). */
export function useDeleteDomain() {
  const queryClient = useQueryClient();
  const scope = useWorkspaceScope();
  const refresh = useRefreshDomains();
  return useMutation({
    mutationFn: (id: number) => apiFetch<void>(domainPath(id, scope), { method: 'DELETE' }),
    onSuccess: (_data, id) => {
      queryClient.setQueryData<DomainList>(domainKeys.list(scope), (list) => list && { ...list, domains: list.domains.filter((known) => known.id !== id) });
      return refresh();
    },
  });
}
