import { domainMessages } from '@common/domains/domain-messages';
import type { Domain } from '@common/domains/domain-schemas';
import { roleMayNotReasons } from '@common/workspaces/workspace-roles';
import { useRef } from 'react';
import { messageOf } from '../../api/client';
import { usePageTitle } from '../../app/use-page-title';
import { Alert } from '../../components/ui/alert';
import { BarLoader } from '../../components/ui/bar-loader';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { formatNumber } from '../../lib/format';
import { useCurrentWorkspace } from '../workspaces/current-workspace';
import { useDomains } from './api/domains';
import { AddDomainForm } from './components/add-domain-form';
import { DomainCard, domainHeadingId } from './components/domain-card';
import { readableHost } from './domain-choices';

/**
 * /w/{slug}/dominios (and /cuenta/dominios for the personal workspace): the workspace's own domains.
 * Every member sees them; admins and owners add, verify, redirect and remove them.
 */
export function DomainsPage() {
  const { workspace, may } = useCurrentWorkspace();
  const team = workspace && !workspace.personal ? workspace : undefined;
  usePageTitle(team ? `Dominios de ${team.name}` : 'Dominios');
  const domains = useDomains();
  const manages = may('manage');
  const heading = useRef<HTMLHeadingElement>(null);
  // Once a card is gone or has arrived, the keyboard carries on from somewhere that exists.
  const focusLater = (find: () => HTMLElement | null) => window.setTimeout(() => find()?.focus(), 0);
  const onAdded = (domain: Domain) => focusLater(() => document.getElementById(domainHeadingId(domain)));
  const onDeleted = () => focusLater(() => heading.current);

  const list = domains.data;
  const off = list?.limit === 0;
  const full = list !== undefined && !off && list.domains.length >= list.limit;
  return (
    <div className="mx-auto grid max-w-3xl grid-cols-1 gap-6">
      <header className="grid gap-2">
        <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold tracking-tight break-words outline-none">
          Dominios
        </h1>
        {team && <p className="text-slate-300">Los dominios propios de «{team.name}».</p>}
        <p className="text-slate-300">
          Crea tus links en tu propio dominio (por ejemplo, <span className="text-teal-200">go.empresa.es/oferta</span>).
          {list && !off && (
            <>
              {' '}
              En el DNS de tu dominio, apúntalo a <code className="break-all text-teal-200">{readableHost(list.instanceHost)}</code> con un registro{' '}
              {/^[\d.]+$|:/.test(list.instanceHost) ? 'A (o AAAA)' : 'CNAME'}; después añádelo aquí y verifícalo.
            </>
          )}
        </p>
      </header>

      {domains.isPending && <BarLoader label="Cargando dominios" />}
      {domains.isError && <Alert>{messageOf(domains.error)}</Alert>}
      {off && <p className="rounded-lg border border-slate-700 bg-slate-900/70 px-3 py-2 text-slate-300">{domainMessages.customDomainsOff}.</p>}

      {list && !off && (
        <section aria-labelledby="dominios-anadir">
          <Card>
            <CardHeader>
              <CardTitle id="dominios-anadir">Añadir dominio</CardTitle>
              <CardDescription>
                {formatNumber(list.domains.length)} de {formatNumber(list.limit)} dominios en este espacio.
              </CardDescription>
            </CardHeader>
            <CardContent>
              {!manages ? (
                <p className="text-sm text-slate-300">{roleMayNotReasons.manage}</p>
              ) : full ? (
                <p className="text-sm text-slate-300">{domainMessages.tooMany(list.limit)}. Elimina uno para añadir otro.</p>
              ) : (
                <AddDomainForm onAdded={onAdded} />
              )}
            </CardContent>
          </Card>
        </section>
      )}

      {list && list.domains.length > 0 && (
        <section aria-labelledby="dominios-lista" className="grid gap-3">
          <h2 id="dominios-lista" className="text-lg font-semibold">
            Dominios del espacio
          </h2>
          {!manages && <p className="text-sm text-slate-400">{roleMayNotReasons.manage}</p>}
          <ul className="grid gap-3">
            {list.domains.map((domain) => (
              <li key={domain.id} className="min-w-0">
                <DomainCard domain={domain} manages={manages} onDeleted={onDeleted} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {list && list.domains.length === 0 && !off && <p className="text-slate-400">Este espacio aún no tiene dominios propios.</p>}
    </div>
  );
}
