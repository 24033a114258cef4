import type { ApiToken } from '@common/tokens/token-schemas';
import { useState } from 'react';
import { toast } from '../../../components/ui/toaster';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { messageOf } from '../../../api/client';
import { useRevokeToken } from '../api/tokens';

const dateFormat = new Intl.DateTimeFormat('es', { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat('es', { dateStyle: 'medium', timeStyle: 'short' });
const scopeLabels = { read: 'Solo lectura', write: 'Lectura y escritura' } as const;

/** The user's tokens: prefix, permissions, dates; each revoked after a confirmation. */
export function TokensList({ tokens }: { tokens: ApiToken[] }) {
  const revoke = useRevokeToken();
  // When the screen was opened: enough to tell a token that has expired.
  const [now] = useState(() => Date.now());
  if (tokens.length === 0) return <p className="text-sm text-slate-300">Aún no tienes tokens.</p>;
  return (
    <ul className="grid gap-3" aria-label="Tus tokens">
      {tokens.map((token) => {
        const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= now;
        return (
          <li key={token.id} className="flex flex-wrap items-center gap-x-6 gap-y-2 rounded-xl border border-slate-800 bg-slate-900/70 p-4">
            <div className="min-w-0 flex-1">
              <p className="font-medium">{token.name}</p>
              <p className="text-sm text-slate-300">
                <code className="text-teal-200">{token.prefix}…</code> · {scopeLabels[token.scope]}
              </p>
            </div>
            <dl className="grid grid-cols-[auto_auto] gap-x-3 text-sm text-slate-300">
              <dt>Creado</dt>
              <dd>{dateFormat.format(new Date(token.createdAt))}</dd>
              <dt>Último uso</dt>
              <dd>{token.lastUsedAt ? dateTimeFormat.format(new Date(token.lastUsedAt)) : 'Nunca'}</dd>
              <dt>{expired ? 'Caducó' : 'Caduca'}</dt>
              <dd>{token.expiresAt ? dateFormat.format(new Date(token.expiresAt)) : 'Nunca'}</dd>
            </dl>
            <ConfirmButton
              size="sm"
              disabled={revoke.isPending && revoke.variables === token.id}
              aria-label={`Revocar ${token.name}`}
              title={`¿Revocar el token «${token.name}»?`}
              description="Los programas que lo usan dejarán de tener acceso al momento. No se puede deshacer: para volver a darles acceso tendrás que crear otro token."
              confirmLabel="Revocar"
              onConfirm={() =>
                revoke.mutate(token.id, {
                  onSuccess: () => toast(`Token «${token.name}» revocado`, 'success'),
                  onError: (error) => toast(`No se ha revocado el token. ${messageOf(error)}`),
                })
              }
            >
              Revocar
            </ConfirmButton>
          </li>
        );
      })}
    </ul>
  );
}
