import * as DropdownPrimitive from '@radix-ui/react-dropdown-menu';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

/**
 * Not modal by default: a modal menu hides the rest of the page with aria-hidden while its
 * focusable elements stay in the tree (axe: aria-hidden-focus). Escape, Tab and a click outside
 * still close it, as the menu-button pattern expects.
 */
export function DropdownMenu({ modal = false, ...props }: ComponentProps<typeof DropdownPrimitive.Root>) {
  return <DropdownPrimitive.Root modal={modal} {...props} />;
}
export const DropdownMenuTrigger = DropdownPrimitive.Trigger;
export const DropdownMenuGroup = DropdownPrimitive.Group;

export function DropdownMenuContent({
  className,
  sideOffset = 8,
  align = 'end',
  ...props
}: ComponentProps<typeof DropdownPrimitive.Content>) {
  // Not portalled to <body>: rendered beside its trigger, the menu stays inside the trigger's
  // landmark (the top bar's navigation), where axe looks for every piece of content ('region').
  return (
    <DropdownPrimitive.Content
      sideOffset={sideOffset}
      align={align}
      className={cn(
        'z-50 min-w-48 overflow-hidden rounded-xl border border-slate-700 bg-slate-900 p-1 text-slate-100 shadow-xl shadow-black/40',
        className,
      )}
      {...props}
    />
  );
}

/** Works with asChild to wrap a router Link. */
export function DropdownMenuItem({
  className,
  variant = 'default',
  ...props
}: ComponentProps<typeof DropdownPrimitive.Item> & { variant?: 'default' | 'destructive' }) {
  return (
    <DropdownPrimitive.Item
      className={cn(
        'flex cursor-default items-center gap-2 rounded-md px-3 py-2 text-sm outline-none select-none [&_svg]:size-4',
        'data-[highlighted]:bg-slate-800 data-[highlighted]:text-white data-[disabled]:pointer-events-none data-[disabled]:opacity-50',
        variant === 'destructive' && 'text-red-300 data-[highlighted]:text-red-200',
        className,
      )}
      {...props}
    />
  );
}

export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof DropdownPrimitive.Label>) {
  return <DropdownPrimitive.Label className={cn('px-3 py-2 text-sm font-semibold text-slate-100', className)} {...props} />;
}

export function DropdownMenuSeparator({ className, ...props }: ComponentProps<typeof DropdownPrimitive.Separator>) {
  return <DropdownPrimitive.Separator className={cn('my-1 h-px bg-slate-800', className)} {...props} />;
}
