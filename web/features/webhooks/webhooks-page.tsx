import { webhookMessages as m } from '@common/webhooks/webhook-messages';
import { roleMayNotReasons } from '@common/workspaces/workspace-roles';
import { Check, Copy } from 'lucide-react';
import { useRef, useState } from 'react';
import { messageOf } from '../../api/client';
import { usePageTitle } from '../../app/use-page-title';
import { Alert } from '../../components/ui/alert';
import { BarLoader } from '../../components/ui/bar-loader';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { toast } from '../../components/ui/toaster';
import { useCopy } from '../../components/ui/use-copy';
import { useCurrentWorkspace } from '../workspaces/current-workspace';
import { useCreateWebhook, useWebhooks } from './api/webhooks';
import { WebhookCard } from './components/webhook-card';
import { WebhookForm } from './components/webhook-form';

/**
 * /w/{slug}/webhooks (and /cuenta/webhooks for the personal workspace): the addresses Corto tells
 * of clicks and link changes, signed with each webhook's secret. Admins and owners only.
 */
export function WebhooksPage() {
  const { workspace, may } = useCurrentWorkspace();
  const team = workspace && !workspace.personal ? workspace : undefined;
  usePageTitle(team ? `Webhooks de ${team.name}` : 'Webhooks');
  const manages = may('manage');
  const webhooks = useWebhooks(manages);
  const create = useCreateWebhook();
  const [secret, setSecret] = useState<string>();
  const [formKey, setFormKey] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);
  const secretHeading = useRef<HTMLHeadingElement>(null);
  const focusLater = (find: () => HTMLElement | null) => window.setTimeout(() => find()?.focus(), 0);

  return (
    <div className="mx-auto grid max-w-3xl grid-cols-1 gap-6">
      <header className="grid gap-2">
        <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold tracking-tight break-words outline-none">
          Webhooks
        </h1>
        {team && <p className="text-slate-300">Los webhooks de «{team.name}».</p>}
        <p className="text-slate-300">
          Corto avisa a otros sistemas (tu CRM, tu automatización) con una petición firmada cada vez que alguien abre un link o un link se crea, cambia o se
          elimina.
        </p>
      </header>

      {!manages ? (
        <p className="rounded-lg border border-slate-700 bg-slate-900/70 px-3 py-2 text-slate-300">{roleMayNotReasons.manage}</p>
      ) : (
        <>
          {secret && (
            <section aria-labelledby="webhook-secreto" className="grid gap-3 rounded-xl border border-amber-400/40 bg-amber-950/30 p-4">
              <h2 id="webhook-secreto" ref={secretHeading} tabIndex={-1} className="font-semibold outline-none">
                Secreto del webhook
              </h2>
              <p className="text-sm text-amber-100">{m.created}</p>
              <SecretValue secret={secret} />
              <p className="text-xs text-slate-300">Con él, tu sistema comprueba la firma de cada aviso (cabecera webhook-signature, Standard Webhooks).</p>
              <div>
                <Button type="button" variant="outline" size="sm" onClick={() => (setSecret(undefined), focusLater(() => heading.current))}>
                  Ya lo he guardado
                </Button>
              </div>
            </section>
          )}
          <section aria-labelledby="webhooks-crear">
            <Card>
              <CardHeader>
                <CardTitle id="webhooks-crear">Crear webhook</CardTitle>
                <CardDescription>Corto enviará una petición POST a esa dirección con cada evento elegido.</CardDescription>
              </CardHeader>
              <CardContent>
                <WebhookForm
                  key={formKey}
                  submitLabel="Crear webhook"
                  pending={create.isPending}
                  onSubmit={(input) =>
                    create.mutateAsync(input).then((created) => {
                      setSecret(created.secret);
                      setFormKey((key) => key + 1);
                      focusLater(() => secretHeading.current);
                    })
                  }
                />
              </CardContent>
            </Card>
          </section>

          {webhooks.isPending && <BarLoader label="Cargando webhooks" />}
          {webhooks.isError && <Alert>{messageOf(webhooks.error)}</Alert>}
          {webhooks.data && webhooks.data.length > 0 && (
            <section aria-labelledby="webhooks-lista" className="grid gap-3">
              <h2 id="webhooks-lista" className="text-lg font-semibold">
                Webhooks del espacio
              </h2>
              <ul className="grid gap-3">
                {webhooks.data.map((webhook) => (
                  <li key={webhook.id} className="min-w-0">
                    <WebhookCard webhook={webhook} onDeleted={() => focusLater(() => heading.current)} />
                  </li>
                ))}
              </ul>
            </section>
          )}
          {webhooks.data?.length === 0 && <p className="text-slate-400">Este espacio aún no tiene webhooks.</p>}
        </>
      )}
    </div>
  );
}

function SecretValue({ secret }: { secret: string }) {
  const { copied, copy } = useCopy();
  return (
    <div className="flex min-w-0 flex-col gap-2 sm:flex-row sm:items-center">
      <code className="min-w-0 flex-1 rounded-md bg-slate-950 px-3 py-2 break-all text-teal-200" data-testid="webhook-secret">
        {secret}
      </code>
      <Button
        type="button"
        size="sm"
        variant="outline"
        aria-label={copied ? 'Copiar el secreto: copiado' : 'Copiar el secreto'}
        onClick={async () => {
          if (!(await copy(secret)).ok) toast('No se pudo copiar: selecciona el texto y cópialo a mano.');
        }}
      >
        {copied ? <Check aria-hidden className="text-teal-300" /> : <Copy aria-hidden />}
        {copied ? 'Copiado' : 'Copiar'}
      </Button>
    </div>
  );
}
