import { cn } from '../../lib/cn';

type BarLoaderProps = {
  /** What is loading, for screen readers. */
  label?: string;
  className?: string;
};

/** The spec's full-width teal bar loader: an indeterminate progress bar. */
export function BarLoader({ label = 'Cargando', className }: BarLoaderProps) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-busy="true"
      className={cn('relative h-1 w-full overflow-hidden bg-teal-950', className)}
    >
      <div className="bar-loader-run absolute inset-y-0 left-0 w-2/5 rounded-full bg-teal-400" />
    </div>
  );
}
