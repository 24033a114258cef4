import { webhookMessages as m } from '@common/webhooks/webhook-messages';
import type { ClickEventData } from '@common/webhooks/webhook-schemas';
import { useId } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { type LiveState, useLiveClicks } from '../api/use-live-clicks';
import { countryName, deviceName } from './stats-labels';

const stateLabels: Record<LiveState, string> = {
  connecting: 'Conectando…',
  connected: m.liveConnected,
  reconnecting: m.liveReconnecting,
  ended: m.liveEnded,
};

const timeFormat = new Intl.DateTimeFormat('es', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

function place({ country, city }: ClickEventData): string {
  if (!country) return 'Ubicación desconocida';
  return city ? `${city}, ${countryName(country)}` : countryName(country);
}

function ClickRow({ click }: { click: ClickEventData }) {
  const agent = [deviceName(click.device), click.browser, click.os].filter(Boolean).join(' · ');
  return (
    <li className="flex flex-col gap-1 rounded-lg border border-slate-800 bg-slate-950/40 p-3 sm:flex-row sm:items-center sm:gap-4">
      <time dateTime={click.clickedAt} className="shrink-0 font-mono text-sm text-slate-300 tabular-nums">
        {timeFormat.format(new Date(click.clickedAt))}
      </time>
      <span className="min-w-0 font-medium break-words">{place(click)}</span>
      <span className="min-w-0 text-sm break-words text-slate-300">{agent}</span>
      <span className="min-w-0 text-sm break-all text-slate-400">{click.referrer ?? m.liveDirect}</span>
      <span className="flex gap-1.5 sm:ml-auto">
        {click.qr && <span className="rounded bg-teal-900/60 px-1.5 py-0.5 text-xs font-semibold text-teal-200">{m.liveQr}</span>}
        {click.bot && <span className="rounded bg-slate-800 px-1.5 py-0.5 text-xs text-slate-300">{m.liveBot}</span>}
      </span>
    </li>
  );
}

/** 'En directo': the link's clicks appearing at the top as they are recorded, without reloading. */
export function LiveClicksCard({ linkId }: { linkId: number }) {
  const { clicks, state } = useLiveClicks(linkId);
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId} role="region">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle id={titleId}>{m.live}</CardTitle>
        <p className="flex items-center gap-2 text-sm text-slate-300" data-testid="live-state">
          <span
            aria-hidden
            className={cn('size-2.5 rounded-full', state === 'connected' ? 'bg-emerald-400' : state === 'ended' ? 'bg-red-400' : 'bg-amber-400')}
          />
          {stateLabels[state]}
        </p>
      </CardHeader>
      <CardContent>
        <div aria-live="polite" aria-relevant="additions">
          {clicks.length === 0 ? (
            <p className="text-slate-300">{m.liveWaiting}</p>
          ) : (
            <ol className="space-y-2" aria-label="Últimos clics">
              {clicks.map(({ key, click }) => (
                <ClickRow key={key} click={click} />
              ))}
            </ol>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
