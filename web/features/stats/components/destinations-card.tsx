import { destinationStatsMessages as m } from '@common/rules/rule-editor-messages';
import type { LinkStats } from '@common/stats/stats-schemas';
import { formatCount, formatNumber, nouns } from '../../../lib/format';
import { colorAt } from './chart-theme';
import { abTestOf, abTestVerdict, type CurrentRouting, destinationLabel, destinationsOf, percentOf, returnRateLine } from './destination-stats';

/** Whether the link's stats have anything to say per destination. */
export function hasDestinations(stats: LinkStats, routing: CurrentRouting | undefined): boolean {
  const rows = destinationsOf(stats);
  if (rows.length === 0) return abTestOf(stats) !== null;
  return rows.some((row) => row.source !== 'default') || abTestOf(stats) !== null || (routing !== undefined && (routing.rules.length > 0 || routing.variants !== null));
}

/** «Por destino»: the clicks per rule and per variant, and for an A/B test which variant leads and how sure that is. */
export function DestinationsCard({ stats, routing }: { stats: LinkStats; routing: CurrentRouting }) {
  const rows = destinationsOf(stats);
  const abTest = abTestOf(stats);
  const verdict = abTest ? abTestVerdict(abTest) : null;
  return (
    <section aria-labelledby="stats-destinations" className="space-y-4">
      <div className="space-y-1">
        <h3 id="stats-destinations" className="text-base font-semibold text-slate-200">
          {m.title}
        </h3>
        <p className="text-sm text-slate-400">{m.help}</p>
      </div>
      {rows.length > 0 && (
        <ul className="space-y-3">
          {rows.map((row, index) => (
            <li key={`${row.source} ${row.destinationId ?? ''} ${row.url}`} className="space-y-1">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
                <span className="font-medium text-slate-100">{destinationLabel(row, routing, abTest)}</span>
                <span className="tabular-nums text-slate-300">
                  {formatCount(row.clicks, nouns.click)} · {formatCount(row.visitors, nouns.visitor)} · {percentOf(row.share)} %
                </span>
              </div>
              <p className="text-xs break-all text-slate-400">{row.url}</p>
              <div className="h-1.5 rounded-full bg-slate-800" aria-hidden="true">
                <div className="h-full rounded-full" style={{ width: `${Math.min(100, Math.max(0, row.share * 100))}%`, background: colorAt(index) }} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {abTest && verdict && (
        <div className="space-y-2 rounded-lg border border-slate-800 bg-slate-950/40 p-4">
          <h4 className="text-sm font-semibold text-slate-200">{m.abTitle}</h4>
          <p className="text-sm text-slate-100">{verdict.sentence}</p>
          {verdict.note && <p className="text-sm text-slate-300">{verdict.note}</p>}
          <ul className="space-y-0.5 text-xs text-slate-400">
            {abTest.variants.map((variant, index) => (
              <li key={variant.destinationId ?? variant.url}>{returnRateLine(variant, index, formatNumber)}</li>
            ))}
          </ul>
          <details className="text-sm text-slate-300">
            <summary className="cursor-pointer rounded-sm text-teal-300 focus-visible:outline-2 focus-visible:outline-teal-300">{m.howTitle}</summary>
            <div className="mt-2 space-y-2">
              {m.how.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </div>
          </details>
        </div>
      )}
    </section>
  );
}
