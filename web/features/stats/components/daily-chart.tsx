import type { LinkStats } from '@common/stats/stats-schemas';
import { statsMessages } from '@common/stats/stats-messages';
import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartFigure } from './chart-figure';
import { AXIS_COLOR, GRID_COLOR, animate, colorAt, tooltipStyle } from './chart-theme';
import { formatCount, formatNumber, formatUtcDay, nouns } from '../../../lib/format';

/** Clicks, unique visitors and QR scans for every day of the period (days without clicks show as zero). */
export function DailyChart({ byDay }: { byDay: LinkStats['byDay'] }) {
  const data = byDay.map((row) => ({ day: formatUtcDay(row.date), clicks: row.clicks, visitors: row.visitors, scans: row.scans }));
  // The table lists only days with clicks: ninety zero rows would drown the rest.
  const rows = data.filter((row) => row.clicks > 0).map((row) => ({ label: row.day, value: `${formatCount(row.clicks, nouns.click)}, ${formatCount(row.visitors, nouns.visitor)}, ${formatCount(row.scans, nouns.scan)}` }));
  return (
    <ChartFigure title={statsMessages.byDay} rows={rows}>
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 700, height: 300 }}>
        <AreaChart accessibilityLayer={false} data={data} margin={{ top: 16, right: 24, bottom: 8, left: 0 }}>
          <CartesianGrid stroke={GRID_COLOR} strokeDasharray="3 3" />
          <XAxis dataKey="day" stroke={AXIS_COLOR} tick={{ fontSize: 12 }} minTickGap={24} />
          <YAxis stroke={AXIS_COLOR} allowDecimals={false} width={40} tick={{ fontSize: 12 }} tickFormatter={formatNumber} />
          <Tooltip {...tooltipStyle} />
          <Legend />
          <Area type="monotone" dataKey="clicks" name="Clics" stroke={colorAt(0)} fill={colorAt(0)} fillOpacity={0.2} isAnimationActive={animate()} />
          <Area
            type="monotone"
            dataKey="visitors"
            name={statsMessages.uniqueVisitors}
            stroke={colorAt(1)}
            fill={colorAt(1)}
            fillOpacity={0.15}
            isAnimationActive={animate()}
          />
          <Area
            type="monotone"
            dataKey="scans"
            name={statsMessages.scans}
            stroke={colorAt(2)}
            fill={colorAt(2)}
            fillOpacity={0.1}
            isAnimationActive={animate()}
          />
        </AreaChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
