import type { Webhook } from '@common/webhooks/webhook-schemas';
import { webhookEventLabels, webhookMessages as m } from '@common/webhooks/webhook-messages';
import { useState } from 'react';
import { messageOf } from '../../../api/client';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { toast } from '../../../components/ui/toaster';
import { formatDateTime } from '../../../lib/format';
import { useDeleteWebhook, useTestWebhook, useUpdateWebhook } from '../api/webhooks';
import { DeliveriesList } from './deliveries-list';
import { WebhookForm } from './webhook-form';

export const webhookHeadingId = (webhook: Pick<Webhook, 'id'>) => `webhook-${webhook.id}`;

/** One webhook: where it sends and what, its state; enable or disable, edit, delete, a test, its deliveries. */
export function WebhookCard({ webhook, onDeleted }: { webhook: Webhook; onDeleted: () => void }) {
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const test = useTestWebhook();
  const [editing, setEditing] = useState(false);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [failure, setFailure] = useState<string>();
  const headingId = webhookHeadingId(webhook);

  const setEnabled = (enabled: boolean) => {
    setFailure(undefined);
    update.mutate(
      { id: webhook.id, changes: { enabled } },
      { onSuccess: () => toast(enabled ? m.enabled : m.disabledByUser, 'success'), onError: (error) => setFailure(messageOf(error)) },
    );
  };

  return (
    <Card className="grid min-w-0 gap-4 p-4 sm:p-5" aria-labelledby={headingId} role="group">
      <header className="grid gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={headingId} tabIndex={-1} className="min-w-0 font-mono text-base font-semibold break-all outline-none">
            {webhook.url}
          </h3>
          <span
            className={`rounded px-1.5 py-0.5 text-xs font-semibold ${webhook.enabled ? 'bg-emerald-900/50 text-emerald-200' : 'bg-slate-800 text-slate-300'}`}
          >
            {webhook.enabled ? 'Activo' : 'Desactivado'}
          </span>
        </div>
        {!webhook.enabled && webhook.disabledReason && <p className="text-sm text-red-200">{webhook.disabledReason}</p>}
        <p className="text-sm text-slate-300">{webhook.events.map((event) => webhookEventLabels[event]).join(' · ')}</p>
        <p className="text-sm text-slate-400">
          {webhook.links.length === 0 ? 'Todos los links del espacio' : `${webhook.links.length} link${webhook.links.length === 1 ? '' : 's'} elegido${webhook.links.length === 1 ? '' : 's'}`}
          {' · creado el '}
          <time dateTime={webhook.createdAt}>{formatDateTime(webhook.createdAt)}</time>
        </p>
      </header>

      {editing ? (
        <WebhookForm
          initial={webhook}
          submitLabel="Guardar webhook"
          pending={update.isPending}
          onCancel={() => setEditing(false)}
          onSubmit={(input) =>
            update.mutateAsync({ id: webhook.id, changes: input }).then(() => {
              setEditing(false);
              toast(m.saved, 'success');
            })
          }
        />
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" size="sm" onClick={() => setEnabled(!webhook.enabled)} loading={update.isPending}>
            {webhook.enabled ? 'Desactivar' : 'Activar'}
          </Button>
          <Button type="button" variant="outline" size="sm" onClick={() => setEditing(true)}>
            Editar
          </Button>
          <Button
            type="button"
            variant="outline"
            size="sm"
            loading={test.isPending}
            onClick={() => {
              setFailure(undefined);
              test.mutate(webhook.id, {
                onSuccess: () => {
                  toast(m.testSent, 'success');
                  setShowDeliveries(true);
                },
                onError: (error) => setFailure(messageOf(error)),
              });
            }}
          >
            {m.sendTest}
          </Button>
          <ConfirmButton
            size="sm"
            title={`¿Eliminar el webhook de ${webhook.url}?`}
            description="Dejará de recibir avisos y se borrará su registro de envíos. No se puede deshacer."
            confirmLabel="Eliminar"
            onConfirm={async () => {
              // Awaited rather than told by mutate's callbacks: the card is gone from the list by then.
              try {
                await remove.mutateAsync(webhook.id);
              } catch (error) {
                setFailure(messageOf(error));
                return;
              }
              toast(m.deleted, 'success');
              onDeleted();
            }}
          >
            Eliminar
          </ConfirmButton>
        </div>
      )}
      {failure && <Alert>{failure}</Alert>}

      <details
        open={showDeliveries}
        onToggle={(event) => setShowDeliveries(event.currentTarget.open)}
        className="rounded-lg border border-slate-800 p-3 open:pb-4"
      >
        <summary className="cursor-pointer rounded-sm text-sm font-medium text-slate-200 focus-visible:outline-2 focus-visible:outline-teal-300">
          Registro de envíos
        </summary>
        <div className="mt-3">{showDeliveries && <DeliveriesList webhookId={webhook.id} />}</div>
      </details>
    </Card>
  );
}
