import type { Delivery } from '@common/webhooks/webhook-schemas';
import { webhookMessages as m } from '@common/webhooks/webhook-messages';
import { messageOf } from '../../../api/client';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toaster';
import { formatDateTime } from '../../../lib/format';
import { useDeliveries, useRetryDelivery } from '../api/webhooks';

const statusLabels: Record<Delivery['status'], string> = { pending: 'Pendiente', delivered: 'Entregado', failed: 'Fallido' };
const statusClass: Record<Delivery['status'], string> = {
  pending: 'bg-amber-900/50 text-amber-200',
  delivered: 'bg-emerald-900/50 text-emerald-200',
  failed: 'bg-red-900/50 text-red-200',
};
const eventLabel = (event: Delivery['event']) => (event === 'ping' ? 'Prueba' : event);

/** The webhook's last deliveries, newest first: what came back, how long it took, and «Reintentar» for a failed one. */
export function DeliveriesList({ webhookId }: { webhookId: number }) {
  const deliveries = useDeliveries(webhookId);
  const retry = useRetryDelivery();
  if (deliveries.isPending) return <p className="text-sm text-slate-300">Cargando envíos…</p>;
  if (deliveries.isError) return <Alert>{messageOf(deliveries.error)}</Alert>;
  if (deliveries.data.length === 0) return <p className="text-sm text-slate-400">Aún no hay envíos.</p>;
  return (
    <ul className="grid gap-2" aria-label="Envíos">
      {deliveries.data.map((delivery) => (
        <li key={delivery.id} className="grid gap-1 rounded-lg border border-slate-800 bg-slate-950/40 p-3 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${statusClass[delivery.status]}`}>{statusLabels[delivery.status]}</span>
            <span className="font-mono">{eventLabel(delivery.event)}</span>
            <time dateTime={delivery.createdAt} className="text-slate-400">
              {formatDateTime(delivery.createdAt)}
            </time>
          </div>
          <dl className="flex flex-wrap gap-x-4 gap-y-1 text-slate-300">
            <div className="flex gap-1">
              <dt className="text-slate-400">Respuesta:</dt>
              <dd>{delivery.responseStatus ?? 'ninguna'}</dd>
            </div>
            <div className="flex gap-1">
              <dt className="text-slate-400">Duración:</dt>
              <dd>{delivery.durationMs === null ? '—' : `${delivery.durationMs} ms`}</dd>
            </div>
            <div className="flex gap-1">
              <dt className="text-slate-400">Intentos:</dt>
              <dd>{delivery.attempts}</dd>
            </div>
            {delivery.nextAttemptAt && (
              <div className="flex gap-1">
                <dt className="text-slate-400">Próximo intento:</dt>
                <dd>
                  <time dateTime={delivery.nextAttemptAt}>{formatDateTime(delivery.nextAttemptAt)}</time>
                </dd>
              </div>
            )}
          </dl>
          {delivery.error && <p className="text-red-200">{delivery.error}</p>}
          {delivery.status === 'failed' && (
            <div>
              <Button
                type="button"
                size="sm"
                variant="outline"
                loading={retry.isPending && retry.variables?.deliveryId === delivery.id}
                onClick={() =>
                  retry.mutate(
                    { id: webhookId, deliveryId: delivery.id },
                    { onSuccess: () => toast(m.retryQueued, 'success'), onError: (error) => toast(messageOf(error)) },
                  )
                }
              >
                Reintentar
              </Button>
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
