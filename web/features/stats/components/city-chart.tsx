import type { LinkStats } from '@common/stats/stats-schemas';
import { statsMessages } from '@common/stats/stats-messages';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount, formatNumber, nouns } from '../../../lib/format';
import { ChartFigure } from './chart-figure';
import { AXIS_COLOR, GRID_COLOR, animate, colorAt, tooltipStyle } from './chart-theme';
import { CityTick, type TickProps, cityTickHeight } from './city-tick';
import { GeoAttribution } from './geo-attribution';
import { cityName } from './stats-labels';
import { useWideScreen } from './use-wide-screen';

/** The spec's location chart: a line through the first 5 cities' click counts. */
export function CityChart({ byCity }: { byCity: LinkStats['byCity'] }) {
  const data = byCity.map((row) => ({ name: cityName(row.city), clicks: row.count }));
  // A phone gives each city about 50 px: its labels go on two rows.
  const staggered = !useWideScreen();
  return (
    <ChartFigure
      title={statsMessages.byLocation}
      rows={data.map((row) => ({ label: row.name, value: formatCount(row.clicks, nouns.click) }))}
      footer={<GeoAttribution />}
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 700, height: 300 }}>
        <LineChart accessibilityLayer={false} data={data} margin={{ top: 16, right: 24, bottom: 8, left: 0 }}>
          <CartesianGrid stroke={GRID_COLOR} strokeDasharray="3 3" />
          {/* A band per city, the point in its middle: the first and last names have half a band to centre in. */}
          <XAxis
            dataKey="name"
            stroke={AXIS_COLOR}
            interval={0}
            scale="band"
            height={cityTickHeight(staggered)}
            tick={(props: TickProps) => <CityTick {...props} staggered={staggered} />}
          />
          <YAxis stroke={AXIS_COLOR} allowDecimals={false} width={40} tick={{ fontSize: 12 }} tickFormatter={formatNumber} />
          <Tooltip {...tooltipStyle} formatter={(value) => [formatNumber(Number(value)), 'Clics']} />
          <Line
            type="monotone"
            dataKey="clicks"
            name="Clics"
            stroke={colorAt(0)}
            strokeWidth={2}
            dot={{ r: 4, fill: colorAt(0) }}
            isAnimationActive={animate()}
          />
        </LineChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
