import type { LinkStats } from '@common/stats/stats-schemas';
import { statsMessages } from '@common/stats/stats-messages';
import { Cell, Legend, Pie, PieChart, ResponsiveContainer, Tooltip } from 'recharts';
import { formatCount, formatNumber, nouns } from '../../../lib/format';
import { ChartFigure } from './chart-figure';
import { animate, colorAt, tooltipStyle } from './chart-theme';
import { deviceName } from './stats-labels';
import { useWideScreen } from './use-wide-screen';

/** The spec's device chart: each device's whole-number share (computed by the server), four colours in turn. */
export function DeviceChart({ byDevice }: { byDevice: LinkStats['byDevice'] }) {
  const data = byDevice.map((row) => ({ name: deviceName(row.device), value: row.count, percent: row.percent }));
  // Labels beside the slices need room; on a phone the legend carries the shares instead.
  const wide = useWideScreen();
  return (
    <ChartFigure
      title={statsMessages.byDevice}
      rows={data.map((row) => ({ label: row.name, value: `${row.percent} % (${formatCount(row.value, nouns.click)})` }))}
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 700, height: 300 }}>
        <PieChart accessibilityLayer={false}>
          <Pie
            data={data}
            dataKey="value"
            nameKey="name"
            outerRadius="70%"
            rootTabIndex={-1}
            // A dark edge parts two slices; a lone slice (one device, 100 %) would show it as a notch
            // from the centre to the rim, so it has none.
            stroke={data.length > 1 ? '#0f172a' : 'none'}
            label={
              wide
                ? ({ payload }: { payload?: { name: string; percent: number } }) => (payload ? `${payload.name} ${payload.percent}%` : '')
                : false
            }
            isAnimationActive={animate()}
          >
            {data.map((row, index) => (
              <Cell key={row.name} fill={colorAt(index)} />
            ))}
          </Pie>
          <Tooltip {...tooltipStyle} formatter={(value, _name, item) => [`${formatNumber(Number(value))} (${item.payload.percent}%)`, item.payload.name]} />
          <Legend formatter={(name: string) => `${name} ${data.find((row) => row.name === name)?.percent ?? 0}%`} />
        </PieChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
