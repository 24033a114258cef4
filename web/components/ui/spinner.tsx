import { cn } from '../../lib/cn';

type SpinnerProps = {
  className?: string;
  /** Spoken by screen readers; leave empty when the surrounding control already says what is happening. */
  label?: string;
};

/** A small spinning ring that inherits the text colour. */
export function Spinner({ className, label }: SpinnerProps) {
  return (
    <span
      role={label ? 'status' : undefined}
      aria-label={label || undefined}
      aria-hidden={label ? undefined : true}
      className={cn(
        'inline-block size-4 shrink-0 animate-spin rounded-full border-2 border-current border-r-transparent',
        className,
      )}
    />
  );
}
