import type { Domain } from '@common/domains/domain-schemas';
import { useState } from 'react';
import { messageOf } from '../../../api/client';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { toast } from '../../../components/ui/toaster';
import { formatCount, formatDateTime, nouns } from '../../../lib/format';
import { useDeleteDomain, useVerifyDomain } from '../api/domains';
import { domainState } from '../domain-choices';
import { CopyValueButton } from './copy-value-button';
import { DomainStateBadge } from './domain-state-badge';
import { RedirectsForm } from './redirects-form';

/** The id of a domain's heading: the page focuses it once the domain is added. */
export const domainHeadingId = (domain: Pick<Domain, 'id'>) => `dominio-${domain.id}`;

/** One domain: its state and links; the TXT record and «Verificar» while pending; its redirects; «Eliminar». */
export function DomainCard({ domain, manages, onDeleted }: { domain: Domain; manages: boolean; onDeleted?: () => void }) {
  const state = domainState(domain);
  const headingId = domainHeadingId(domain);
  return (
    <Card className="grid min-w-0 gap-5 p-4 sm:p-5" aria-labelledby={headingId} role="group">
      <header className="grid gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id={headingId} tabIndex={-1} className="min-w-0 text-lg font-semibold break-all outline-none">
            {domain.displayHostname}
          </h2>
          <DomainStateBadge state={state} />
        </div>
        {domain.displayHostname !== domain.hostname && <p className="text-xs break-all text-slate-400">En el DNS: {domain.hostname}</p>}
        <p className="text-sm text-slate-300">
          {formatCount(domain.links, nouns.link)}
          {domain.verifiedAt ? (
            <>
              {' · verificado el '}
              <time dateTime={domain.verifiedAt}>{formatDateTime(domain.verifiedAt)}</time>
            </>
          ) : (
            <>
              {' · añadido el '}
              <time dateTime={domain.createdAt}>{formatDateTime(domain.createdAt)}</time>
            </>
          )}
        </p>
        {state === 'disabled' && (
          <p className="text-sm text-red-200">Quien administra esta instancia lo ha desactivado: sus links no funcionan. Si crees que es un error, escríbele.</p>
        )}
      </header>
      {state === 'pending' && <Verification domain={domain} manages={manages} />}
      {manages ? (
        <details className="group rounded-lg border border-slate-800 p-3 open:pb-4">
          <summary className="cursor-pointer rounded-sm text-sm font-medium text-slate-200 focus-visible:outline-2 focus-visible:outline-teal-300">
            Redirecciones del dominio
          </summary>
          <div className="mt-3">
            <RedirectsForm domain={domain} />
          </div>
        </details>
      ) : (
        <dl className="grid gap-1 text-sm">
          <Redirect label="Al abrir el dominio sin código" value={domain.rootRedirect} />
          <Redirect label="Código desconocido" value={domain.notFoundRedirect} />
        </dl>
      )}
      {manages && <DeleteDomain domain={domain} onDeleted={onDeleted} />}
    </Card>
  );
}

function Redirect({ label, value }: { label: string; value: string | null }) {
  return (
    <div className="flex min-w-0 flex-wrap gap-x-1">
      <dt className="text-slate-400">{label}:</dt>
      <dd className="min-w-0 break-all">{value ?? 'la página de Corto'}</dd>
    </div>
  );
}

/** The TXT record to create, each part with its copy button, and «Verificar» with what the lookup found under it. */
function Verification({ domain, manages }: { domain: Domain; manages: boolean }) {
  const verify = useVerifyDomain();
  const [failure, setFailure] = useState<string>();
  const alertId = `dominio-${domain.id}-verificacion`;
  const check = () => {
    setFailure(undefined);
    verify.mutate(domain.id, {
      onSuccess: (verified) => toast(`${verified.displayHostname}: dominio verificado, ya puedes crear links en él.`, 'success'),
      onError: (error) => setFailure(messageOf(error)),
    });
  };
  return (
    <section className="grid gap-3 rounded-lg border border-amber-400/30 bg-amber-950/20 p-3" aria-label={`Verificación de ${domain.displayHostname}`}>
      <p className="text-sm text-slate-200">Para demostrar que el dominio es tuyo, crea este registro en su DNS:</p>
      <dl className="grid gap-3 text-sm">
        <div className="grid gap-1">
          <dt className="text-slate-400">Tipo</dt>
          <dd>
            <code className="text-teal-200">{domain.verification.type}</code>
          </dd>
        </div>
        <RecordPart label="Nombre" text={domain.verification.name} copyLabel={`Copiar el nombre del registro de ${domain.displayHostname}`} />
        <RecordPart label="Valor" text={domain.verification.value} copyLabel={`Copiar el valor del registro de ${domain.displayHostname}`} />
      </dl>
      {manages && (
        <div className="grid gap-2">
          <p className="text-xs text-slate-400">Los cambios de DNS pueden tardar unos minutos en verse.</p>
          <div>
            <Button type="button" onClick={check} loading={verify.isPending} aria-describedby={failure ? alertId : undefined}>
              Verificar
            </Button>
          </div>
          {failure && <Alert id={alertId}>{failure}</Alert>}
        </div>
      )}
    </section>
  );
}

function RecordPart({ label, text, copyLabel }: { label: string; text: string; copyLabel: string }) {
  return (
    <div className="grid gap-1">
      <dt className="text-slate-400">{label}</dt>
      <dd className="flex min-w-0 flex-col gap-2 sm:flex-row sm:items-center">
        <code className="min-w-0 flex-1 rounded-md bg-slate-950 px-3 py-2 break-all text-teal-200">{text}</code>
        <CopyValueButton text={text} label={copyLabel} />
      </dd>
    </div>
  );
}

/** «Eliminar», asked first; while links use the domain the server refuses and the card says how many. */
function DeleteDomain({ domain, onDeleted }: { domain: Domain; onDeleted?: (() => void) | undefined }) {
  const remove = useDeleteDomain();
  const [failure, setFailure] = useState<string>();
  const alertId = `dominio-${domain.id}-eliminar`;
  return (
    <div className="grid gap-2 border-t border-slate-800 pt-4">
      <div>
        <ConfirmButton
          size="sm"
          aria-label={`Eliminar el dominio ${domain.displayHostname}`}
          aria-describedby={failure ? alertId : undefined}
          loading={remove.isPending}
          title={`¿Eliminar ${domain.displayHostname}?`}
          description="Dejará de servir links en este espacio. Podrás volver a añadirlo, pero tendrás que verificarlo de nuevo."
          confirmLabel="Eliminar"
          onConfirm={() => {
            setFailure(undefined);
            // The promise rather than mutate's callbacks: the card leaves the list (and unmounts)
            // before they would run, and the notice must still be said.
            remove.mutateAsync(domain.id).then(
              () => {
                toast(`Dominio ${domain.displayHostname} eliminado.`, 'success');
                onDeleted?.();
              },
              (error: unknown) => setFailure(messageOf(error)),
            );
          }}
        >
          Eliminar
        </ConfirmButton>
      </div>
      {failure && <Alert id={alertId}>{failure}</Alert>}
    </div>
  );
}
