import type { LinkStats } from '@common/stats/stats-schemas';
import { statsMessages } from '@common/stats/stats-messages';
import { BreakdownList } from './breakdown-list';
import { CityChart } from './city-chart';
import { DailyChart } from './daily-chart';
import { DeviceChart } from './device-chart';
import { GeoAttribution } from './geo-attribution';
import { countryName, plainName, referrerName } from './stats-labels';

// Everything that needs recharts, in one module the card imports lazily: the charts library is
// downloaded on the detail page only, never with the landing page or the dashboard.

export default function StatsCharts({ stats }: { stats: LinkStats }) {
  return (
    <div className="space-y-10">
      <div className="grid gap-10">
        <CityChart byCity={stats.byCity} />
        <DeviceChart byDevice={stats.byDevice} />
      </div>
      <DailyChart byDay={stats.byDay} />
      <div className="grid gap-8 sm:grid-cols-2 lg:grid-cols-4">
        <BreakdownList
          title={statsMessages.byCountry}
          items={stats.byCountry.map((row) => ({ label: countryName(row.country), count: row.count }))}
          footer={<GeoAttribution />}
        />
        <BreakdownList title={statsMessages.byBrowser} items={stats.byBrowser.map((row) => ({ label: plainName(row.name), count: row.count }))} />
        <BreakdownList title={statsMessages.byOs} items={stats.byOs.map((row) => ({ label: plainName(row.name), count: row.count }))} />
        <BreakdownList
          title={statsMessages.byReferrer}
          items={stats.byReferrer.map((row) => ({ label: referrerName(row.domain), count: row.count }))}
        />
      </div>
    </div>
  );
}
