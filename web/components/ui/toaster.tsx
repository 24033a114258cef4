import { CircleAlert, CircleCheck, Info, X } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { cn } from '../../lib/cn';

// Short notices about something that happened away from any form (a logout or a delete that
// failed). The live region is always in the page, so screen readers hear each notice as it is
// added; a failure is an alert, read at once. Each tone has its own colour and icon: a success is
// green with a tick, a failure red, a plain notice neutral.

export type ToastTone = 'error' | 'success' | 'info';

/** A button on the notice that acts on what it reports (e.g. «Deshacer»); pressing it closes the notice. */
export interface ToastAction {
  label: string;
  run: () => void;
}

export interface Toast {
  id: number;
  tone: ToastTone;
  message: string;
  action?: ToastAction | undefined;
}

/** How long a notice stays; long enough to read twice, and each has its own close button. */
export const TOAST_MS = 10_000;

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export function dismissToast(id: number) {
  toasts = toasts.filter((toast) => toast.id !== id);
  emit();
}

/** Shows a notice for TOAST_MS; the same message twice in a row shows once. */
export function toast(message: string, tone: ToastTone = 'error', action?: ToastAction): void {
  if (toasts.some((shown) => shown.message === message)) return;
  const id = nextId++;
  toasts = [...toasts, { id, tone, message, action }].slice(-3);
  emit();
  setTimeout(() => dismissToast(id), TOAST_MS);
}

const toneStyles: Record<ToastTone, string> = {
  error: 'border-red-400/40 bg-red-950 text-red-100',
  success: 'border-emerald-400/40 bg-emerald-950 text-emerald-50',
  info: 'border-slate-700 bg-slate-900 text-slate-100',
};

function ToneIcon({ tone }: { tone: ToastTone }) {
  const Icon = tone === 'error' ? CircleAlert : tone === 'success' ? CircleCheck : Info;
  return <Icon className="mt-0.5 size-4 shrink-0" aria-hidden />;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * Where notices appear: bottom of the screen, full width on a phone, bottom right on a desktop;
 * under a dialog's overlay, so they never cover its buttons.
 */
export function Toaster() {
  const shown = useSyncExternalStore(subscribe, () => toasts, () => toasts);
  return (
    <section
      aria-label="Avisos"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-40 flex flex-col items-stretch gap-2 p-4 sm:items-end"
    >
      {shown.map((item) => (
        <div
          key={item.id}
          role={item.tone === 'error' ? 'alert' : 'status'}
          data-tone={item.tone}
          className={cn(
            'pointer-events-auto flex w-full items-start gap-3 rounded-xl border px-4 py-3 text-sm shadow-xl shadow-black/40 sm:max-w-sm',
            toneStyles[item.tone],
          )}
        >
          <ToneIcon tone={item.tone} />
          <p className="flex-1">{item.message}</p>
          {item.action && (
            <button
              type="button"
              onClick={() => {
                dismissToast(item.id);
                item.action?.run();
              }}
              className="-my-1 rounded-md px-2 py-1 font-semibold text-teal-300 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-teal-300"
            >
              {item.action.label}
            </button>
          )}
          <button
            type="button"
            aria-label="Cerrar aviso"
            onClick={() => dismissToast(item.id)}
            className="-m-1 rounded-md p-1 text-current opacity-80 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-teal-300"
          >
            <X className="size-4" aria-hidden />
          </button>
        </div>
      ))}
    </section>
  );
}
