import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

/** A failure the user should read now (a server error over a form, a list that did not load). */
export function Alert({ className, ...props }: ComponentProps<'p'>) {
  return (
    <p
      role="alert"
      className={cn('rounded-lg border border-red-400/40 bg-red-950/40 px-3 py-2 text-sm text-red-200', className)}
      {...props}
    />
  );
}
