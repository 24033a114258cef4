import { linkStatusLabels } from '@common/links/link-messages';
import type { Link, LinkStatus } from '@common/links/link-schemas';
import { cn } from '../../../lib/cn';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { toast } from '../../../components/ui/toaster';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { messageOf } from '../../../api/client';
import { useFreeAddress } from '../api/update-link';
import { useCurrentWorkspace } from '../../workspaces/current-workspace';

export const statusLabels: Record<LinkStatus, string> = linkStatusLabels;

const statusColours: Record<LinkStatus, string> = {
  active: 'border-teal-400/40 bg-teal-400/10 text-teal-200',
  paused: 'border-amber-400/40 bg-amber-400/10 text-amber-200',
  expired: 'border-slate-500 bg-slate-700/40 text-slate-200',
  disabled: 'border-red-400/40 bg-red-400/10 text-red-200',
};

export function LinkStatusBadge({ status }: { status: LinkStatus }) {
  return (
    <span className={cn('inline-flex shrink-0 items-center rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap', statusColours[status])}>
      {statusLabels[status]}
    </span>
  );
}

/** Why a disabled link is, in a few words (the card's line). */
export function disabledLine(link: Pick<Link, 'disabledCause' | 'disabledReason'>): string | null {
  if (link.disabledCause === 'blockedDomain') return 'Desactivado: su destino está en un dominio bloqueado en este servidor';
  if (link.disabledCause === 'operator') return `Desactivado por quien administra el servidor${link.disabledReason ? `. Motivo: ${link.disabledReason}` : ''}`;
  return null;
}

/** What its owner can do about a disabled link. */
export function disabledAdvice(link: Pick<Link, 'disabledCause'>): string | null {
  if (link.disabledCause === 'blockedDomain') {
    return 'Quien lo visita ve «Este link ha sido desactivado». Para que vuelva a funcionar, cambia la URL original por una de otro dominio con «Editar».';
  }
  if (link.disabledCause === 'operator') {
    return 'Quien lo visita ve «Este link ha sido desactivado». No se puede editar; puedes eliminarlo, o escribir a quien administra el servidor si crees que es un error.';
  }
  return null;
}

/** A disabled link's reason and what to do, where its owner looks first (detail page, edit dialog). */
export function DisabledNotice({ link }: { link: Pick<Link, 'disabledCause' | 'disabledReason'> }) {
  const line = disabledLine(link);
  if (!line) return null;
  return (
    <div className="space-y-1 rounded-lg border border-red-400/40 bg-red-950/40 px-3 py-2 text-sm text-red-100">
      <p className="font-semibold">{line}.</p>
      <p>{disabledAdvice(link)}</p>
    </div>
  );
}

/** What is set on a link, in words: why it is disabled, expiry, click limit, password, former addresses. */
export function linkStateLines(link: Link): string[] {
  const lines: string[] = [];
  const disabled = disabledLine(link);
  if (disabled) lines.push(disabled);
  if (link.expiresAt) lines.push(`${Date.parse(link.expiresAt) <= Date.now() ? 'Caducó' : 'Caduca'} el ${formatDateTime(link.expiresAt)}`);
  if (link.maxClicks !== null) lines.push(`Límite: ${formatNumber(link.limitClicks)} de ${formatNumber(link.maxClicks)} clics`);
  if (link.hasPassword) lines.push('Protegido con contraseña');
  if (link.previousAddresses.length > 0) lines.push(`Direcciones anteriores: ${link.previousAddresses.join(', ')}`);
  return lines;
}

/** The former addresses of a link, each with a way to free it (after a confirmation). */
export function PreviousAddresses({ link }: { link: Link }) {
  const free = useFreeAddress();
  const canWrite = useCurrentWorkspace().may('write');
  if (link.previousAddresses.length === 0) return null;
  return (
    <section aria-labelledby="previous-addresses" className="space-y-2">
      <h2 id="previous-addresses" className="text-sm font-semibold text-slate-200">
        Direcciones anteriores (siguen llevando a este link)
      </h2>
      <ul className="space-y-2">
        {link.previousAddresses.map((address) => (
          <li key={address} className="flex flex-wrap items-center gap-3 text-sm text-slate-300">
            <span className="break-all">/{address}</span>
            {canWrite && (
              <ConfirmButton
                size="sm"
                variant="outline"
                aria-label={`Liberar /${address}`}
                loading={free.isPending && free.variables?.address === address}
                title={`¿Liberar /${address}?`}
                description={`/${address} dejará de llevar a este link: quien la visite, y los códigos QR impresos con ella, dejarán de funcionar, y otra persona podrá usarla. No se puede deshacer.`}
                confirmLabel="Liberar"
                onConfirm={() =>
                  free.mutate(
                    { id: link.id, address },
                    {
                      onSuccess: () => toast(`/${address} liberada.`, 'success'),
                      onError: (error) => toast(`No se pudo liberar /${address}. ${messageOf(error)}`),
                    },
                  )
                }
              >
                Liberar
              </ConfirmButton>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
