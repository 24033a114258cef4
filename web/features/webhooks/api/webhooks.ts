import type {
  CreateWebhookInput,
  Delivery,
  UpdateWebhookInput,
  Webhook,
} from '@common/webhooks/webhook-schemas';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { withWorkspace, type WorkspaceScope } from '../../workspaces/workspace-path';

// The workspace's webhooks (docs/webhooks.md): managed by its admins and owners.

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: (scope: WorkspaceScope) => [...webhookKeys.all, 'list', scope] as const,
  deliveries: (scope: WorkspaceScope, id: number) => [...webhookKeys.all, 'deliveries', scope, id] as const,
};

const webhookPath = (scope: WorkspaceScope, id?: number, action = '') => withWorkspace(`/api/webhooks${id === undefined ? '' : `/${id}`}${action}`, scope);

export function webhooksQueryOptions(scope: WorkspaceScope) {
  return queryOptions({
    queryKey: webhookKeys.list(scope),
    queryFn: ({ signal }) => apiFetch<{ webhooks: Webhook[] }>(webhookPath(scope), { signal }).then((body) => body.webhooks),
  });
}

export function useWebhooks(enabled = true) {
  return useQuery({ ...webhooksQueryOptions(useWorkspaceScope()), enabled });
}

/** The last deliveries of one webhook, read again now and then while shown (retries happen meanwhile). */
export function useDeliveries(id: number) {
  const scope = useWorkspaceScope();
  return useQuery({
    queryKey: webhookKeys.deliveries(scope, id),
    queryFn: ({ signal }) => apiFetch<{ deliveries: Delivery[] }>(webhookPath(scope, id, '/deliveries'), { signal }).then((body) => body.deliveries),
    refetchInterval: 10_000,
  });
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
}

export function useCreateWebhook() {
  const scope = useWorkspaceScope();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: CreateWebhookInput) =>
      apiFetch<{ webhook: Webhook; secret: string }>(webhookPath(scope), { method: 'POST', body: JSON.stringify(input) }),
    onSuccess: () => refresh(),
  });
}

export function useUpdateWebhook() {
  const scope = useWorkspaceScope();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: UpdateWebhookInput }) =>
      apiFetch<{ webhook: Webhook }>(webhookPath(scope, id), { method: 'PATCH', body: JSON.stringify(changes) }).then((body) => body.webhook),
    onSuccess: () => refresh(),
  });
}

export function useDeleteWebhook() {
  const scope = useWorkspaceScope();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<unknown>(webhookPath(scope, id), { method: 'DELETE' }),
    onSuccess: async (_answer, id) => {
      // Out of the list at once, so its card (and the log it reads every few seconds) goes before
      // anything asks the server for a webhook that no longer exists.
      queryClient.setQueryData<Webhook[]>(webhookKeys.list(scope), (webhooks) => webhooks?.filter((webhook) => webhook.id !== id));
      await queryClient.cancelQueries({ queryKey: webhookKeys.deliveries(scope, id) });
      queryClient.removeQueries({ queryKey: webhookKeys.deliveries(scope, id) });
      await queryClient.invalidateQueries({ queryKey: webhookKeys.list(scope) });
    },
  });
}

export function useTestWebhook() {
  const scope = useWorkspaceScope();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => apiFetch<{ delivery: Delivery }>(webhookPath(scope, id, '/test'), { method: 'POST' }).then((body) => body.delivery),
    onSuccess: () => refresh(),
  });
}

export function useRetryDelivery() {
  const scope = useWorkspaceScope();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, deliveryId }: { id: number; deliveryId: number }) =>
      apiFetch<{ delivery: Delivery }>(webhookPath(scope, id, `/deliveries/${deliveryId}/retry`), { method: 'POST' }).then((body) => body.delivery),
    onSuccess: () => refresh(),
  });
}
