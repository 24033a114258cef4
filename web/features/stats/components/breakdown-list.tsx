import type { ReactNode } from 'react';
import { formatNumber } from '../../../lib/format';
import { colorAt } from './chart-theme';

export interface BreakdownItem {
  label: string;
  count: number;
}

/** A ranked list with a bar per entry: the smaller breakdowns, in the charts' colours. */
export function BreakdownList({ title, items, footer }: { title: string; items: BreakdownItem[]; footer?: ReactNode }) {
  const max = Math.max(1, ...items.map((item) => item.count));
  return (
    <section className="min-w-0 space-y-3">
      <h3 className="text-base font-semibold text-slate-200">{title}</h3>
      {items.length === 0 ? (
        <p className="text-sm text-slate-400">–</p>
      ) : (
        <ul className="space-y-2">
          {items.map((item, index) => (
            <li key={item.label} className="space-y-1">
              <div className="flex justify-between gap-3 text-sm">
                <span className="truncate text-slate-200">{item.label}</span>
                <span className="tabular-nums text-slate-300">{formatNumber(item.count)}</span>
              </div>
              <div className="h-1.5 rounded-full bg-slate-800" aria-hidden="true">
                <div className="h-full rounded-full" style={{ width: `${(item.count / max) * 100}%`, background: colorAt(index) }} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {footer}
    </section>
  );
}
