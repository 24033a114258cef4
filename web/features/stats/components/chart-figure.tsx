import type { ReactNode } from 'react';
import { chartBoxStyle } from './chart-theme';

export interface ChartRow {
  label: string;
  value: string;
}

/**
 * A chart with its heading, and the same figures as a table for screen readers (an SVG chart
 * says nothing to them).
 */
export function ChartFigure({ title, rows, children, footer }: { title: string; rows: ChartRow[]; children: ReactNode; footer?: ReactNode }) {
  return (
    <figure className="min-w-0 space-y-3">
      <figcaption>
        <h3 className="text-base font-semibold text-slate-200">{title}</h3>
      </figcaption>
      {/* Hidden from assistive technology (the table below says the same); recharts' keyboard layer is off. */}
      <div style={chartBoxStyle} aria-hidden="true">
        {children}
      </div>
      <table className="sr-only">
        <caption>{title}</caption>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              <td>{row.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {footer}
    </figure>
  );
}
