import { type StatsRange, DEFAULT_STATS_RANGE, statsRanges } from '@common/stats/stats-schemas';
import { statsMessages } from '@common/stats/stats-messages';
import { Download } from 'lucide-react';
import { Suspense, lazy, useId, useState } from 'react';
import { buttonVariants } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { formatNumber } from '../../../lib/format';
import { clicksCsvPath, useLinkStats } from '../api/get-link-stats';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { DestinationsCard, hasDestinations } from './destinations-card';
import type { CurrentRouting } from './destination-stats';

const StatsCharts = lazy(() => import('./stats-charts'));

const rangeLabels: Record<StatsRange, string> = {
  '7d': 'Últimos 7 días',
  '30d': 'Últimos 30 días',
  '90d': 'Últimos 90 días',
  all: 'Todo el tiempo',
};

function Figure({ label, value, hint }: { label: string; value: number; hint?: string }) {
  return (
    <div className="rounded-lg border border-slate-800 bg-slate-950/40 p-4" title={hint}>
      <p className="text-sm text-slate-300">{label}</p>
      <p className="text-3xl font-bold tabular-nums">{formatNumber(value)}</p>
    </div>
  );
}

const loadingText = <p className="text-slate-300">{statsMessages.loading}</p>;

/**
 * The spec's 'Estadísticas' card. Rendered by the detail page once the link has loaded; with the
 * link's rules and variants, the clicks per destination are named after them.
 */
export function LinkStatsCard({ linkId, routing }: { linkId: number; routing?: CurrentRouting }) {
  const [range, setRange] = useState<StatsRange>(DEFAULT_STATS_RANGE);
  const query = useLinkStats(linkId, range);
  const scope = useWorkspaceScope();
  const stats = query.data;
  const selectId = useId();
  const titleId = useId();

  let body;
  if (query.isError) body = <p className="text-red-300">{statsMessages.loadError}</p>;
  else if (!stats) body = loadingText;
  else if (stats.total === 0) body = <p className="text-slate-300">{statsMessages.empty}</p>;
  else {
    body = (
      <div className="space-y-8">
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Figure label={statsMessages.totalClicks} value={stats.total} />
          <Figure label={statsMessages.uniqueVisitors} value={stats.uniqueVisitors} hint={statsMessages.uniqueVisitorsHint} />
          <Figure label={statsMessages.scans} value={stats.scans} hint={statsMessages.scansHint} />
          <Figure label={statsMessages.botsLeftOut} value={stats.botClicks} />
        </div>
        {hasDestinations(stats, routing) && <DestinationsCard stats={stats} routing={routing ?? { rules: [], variants: null }} />}
        <Suspense fallback={loadingText}>
          <StatsCharts stats={stats} />
        </Suspense>
      </div>
    );
  }

  return (
    <Card role="region" aria-labelledby={titleId} aria-busy={query.isFetching}>
      <CardHeader className="gap-4 sm:flex-row sm:items-center sm:justify-between">
        <CardTitle as="h2" id={titleId} className="text-2xl">
          {statsMessages.title}
        </CardTitle>
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={selectId} className="sr-only">
            {statsMessages.range}
          </label>
          <select
            id={selectId}
            value={range}
            onChange={(event) => setRange(event.target.value as StatsRange)}
            className="h-10 rounded-lg border border-slate-700 bg-slate-900 px-3 text-sm text-slate-100 focus-visible:outline-2 focus-visible:outline-teal-300"
          >
            {statsRanges.map((value) => (
              <option key={value} value={value}>
                {rangeLabels[value]}
              </option>
            ))}
          </select>
          <a href={clicksCsvPath(linkId, scope)} download className={buttonVariants({ variant: 'outline' })}>
            <Download aria-hidden />
            {statsMessages.exportCsv}
          </a>
        </div>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
