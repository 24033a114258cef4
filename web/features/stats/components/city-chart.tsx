import type { LinkStats } from '@common/stats/stats-schemas';
import { statsMessages } from '@common/stats/stats-messages';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartFigure } from './chart-figure';
import { AXIS_COLOR, GRID_COLOR, animate, colorAt, tooltipStyle } from './chart-theme';
import { GeoAttribution } from './geo-attribution';
import { cityName } from './stats-labels';

/** The spec's location chart: a line through the first 5 cities' click counts. */
export function CityChart({ byCity }: { byCity: LinkStats['byCity'] }) {
  const data = byCity.map((row) => ({ name: cityName(row.city), clicks: row.count }));
  return (
    <ChartFigure
      title={statsMessages.byLocation}
      rows={data.map((row) => ({ label: row.name, value: `${row.clicks} clicks` }))}
      footer={<GeoAttribution />}
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 700, height: 300 }}>
        <LineChart accessibilityLayer={false} data={data} margin={{ top: 16, right: 24, bottom: 8, left: 0 }}>
          <CartesianGrid stroke={GRID_COLOR} strokeDasharray="3 3" />
          <XAxis dataKey="name" stroke={AXIS_COLOR} tick={{ fontSize: 12 }} interval={0} />
          <YAxis stroke={AXIS_COLOR} allowDecimals={false} width={40} tick={{ fontSize: 12 }} />
          <Tooltip {...tooltipStyle} />
          <Line
            type="monotone"
            dataKey="clicks"
            name="Clicks"
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
