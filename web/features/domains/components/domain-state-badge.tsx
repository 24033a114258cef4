import { cn } from '../../../lib/cn';
import { type DomainState, domainStateLabels } from '../domain-choices';

const colours: Record<DomainState, string> = {
  pending: 'border-amber-400/40 bg-amber-400/10 text-amber-200',
  verified: 'border-teal-400/40 bg-teal-400/10 text-teal-200',
  disabled: 'border-red-400/40 bg-red-400/10 text-red-200',
};

export function DomainStateBadge({ state }: { state: DomainState }) {
  return (
    <span className={cn('inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium', colours[state])}>{domainStateLabels[state]}</span>
  );
}
