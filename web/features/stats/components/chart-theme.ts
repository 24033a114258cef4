import { STATS_CHART_HEIGHT, STATS_CHART_WIDTH } from '@common/stats/stats-messages';

// The charts' shared look: the spec's four-colour cycle, the app's slate and teal.

/** teal-400, sky-400, amber-400, rose-400: readable on the dark cards and told apart by most eyes. */
export const CHART_COLORS = ['#2dd4bf', '#38bdf8', '#fbbf24', '#fb7185'] as const;
export const colorAt = (index: number) => CHART_COLORS[index % CHART_COLORS.length]!;

export const AXIS_COLOR = '#94a3b8'; // slate-400
export const GRID_COLOR = '#1e293b'; // slate-800
export const tooltipStyle = {
  contentStyle: { background: '#0f172a', border: '1px solid #334155', borderRadius: 8, color: '#f1f5f9' },
  itemStyle: { color: '#f1f5f9' },
  labelStyle: { color: '#cbd5e1' },
} as const;

/** 700 × 300 on a desktop; on a narrow screen the width shrinks to fit, the height stays. */
export const chartBoxStyle = { width: '100%', maxWidth: STATS_CHART_WIDTH, height: STATS_CHART_HEIGHT } as const;

/** No drawing animation when the visitor asks for less motion (and in screenshot tests, which do). */
export function animate(): boolean {
  return !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}
