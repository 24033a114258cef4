import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

/** A text field; pass aria-invalid and aria-describedby (see FieldError) when it has errors. */
export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return (
    <input
      type={type}
      className={cn(
        'flex h-10 w-full min-w-0 rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-sm text-slate-100 shadow-inner shadow-black/20 transition-colors',
        'placeholder:text-slate-400 focus-visible:border-teal-400 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-teal-400/60',
        'disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-red-400',
        'file:mr-3 file:rounded-md file:border-0 file:bg-slate-800 file:px-2 file:py-1 file:text-xs file:font-medium file:text-slate-100',
        type === 'file' && 'h-auto py-1.5',
        className,
      )}
      {...props}
    />
  );
}
