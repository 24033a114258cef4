import type { CreateInviteInput, Invite, InvitePreview, Workspace } from '@common/workspaces/workspace-schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { slugPath, workspaceKeys } from './workspace-keys';

export function getInvites(slug: string, signal?: AbortSignal) {
  return apiFetch<{ invites: Invite[] }>(`${slugPath(slug)}/invites`, { signal }).then((body) => body.invites);
}

/** The workspace's pending invitations (admins and owners only: others are not asked). */
export function useInvites(slug: string, enabled: boolean) {
  return useQuery({ queryKey: workspaceKeys.invites(slug), queryFn: ({ signal }) => getInvites(slug, signal), enabled });
}

/** The invitation made, with its address; `mailed` says whether the server sent it by mail (SMTP_URL). */
export interface CreatedInvite {
  invite: Invite;
  mailed?: boolean;
}

export function createInvite({ slug, input }: { slug: string; input: CreateInviteInput }) {
  return apiFetch<CreatedInvite>(`${slugPath(slug)}/invites`, { method: 'POST', body: JSON.stringify(input) });
}

/** Invites an address with a role; the answer carries the invitation's address, to copy when no mail goes out. */
export function useCreateInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvite,
    onSuccess: (_invite, { slug }) => queryClient.invalidateQueries({ queryKey: workspaceKeys.one(slug) }),
  });
}

export function revokeInvite({ slug, id }: { slug: string; id: number }) {
  return apiFetch<void>(`${slugPath(slug)}/invites/${id}`, { method: 'DELETE' });
}

/** Revokes a pending invitation: its address stops working at once. */
export function useRevokeInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvite,
    onSettled: (_data, _error, { slug }) => queryClient.invalidateQueries({ queryKey: workspaceKeys.one(slug) }),
  });
}

const invitePath = (token: string) => `/api/invites/${encodeURIComponent(token)}`;

export function getInvitePreview(token: string, signal?: AbortSignal) {
  return apiFetch<InvitePreview>(invitePath(token), { signal });
}

/** What an invitation offers (workspace, role, who invited, for which address), before accepting it. */
export function useInvitePreview(token: string) {
  return useQuery({ queryKey: workspaceKeys.invitePreview(token), queryFn: ({ signal }) => getInvitePreview(token, signal), retry: false });
}

export function acceptInvite(token: string) {
  return apiFetch<{ workspace: Workspace }>(`${invitePath(token)}/accept`, { method: 'POST' }).then((body) => body.workspace);
}

/** The signed-in user joins the workspace the invitation is for. */
export function useAcceptInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptInvite,
    onSuccess: (workspace) => {
      queryClient.setQueryData<Workspace[]>(workspaceKeys.list(), (list) =>
        list && !list.some((known) => known.slug === workspace.slug) ? [...list, workspace] : list,
      );
      return queryClient.invalidateQueries({ queryKey: workspaceKeys.list() });
    },
  });
}
