import { type ComponentType, lazy, useSyncExternalStore } from 'react';

// react-router moves to a new screen inside a transition, so while its code downloads React keeps
// the old screen up and no Suspense fallback shows: only the address changes. Screens made with
// lazyScreen count their downloads here, and the layout shows the teal bar while any is running.

let loading = 0;
const listeners = new Set<() => void>();

function setLoading(change: 1 | -1) {
  loading += change;
  // Not during the render that started the download: React forbids updating another component then.
  queueMicrotask(() => listeners.forEach((listener) => listener()));
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** True while the code of a screen is downloading. */
export function useScreenLoading(): boolean {
  return useSyncExternalStore(subscribe, () => loading > 0, () => false);
}

/** React.lazy for a screen, with its download shown by the layout's bar. */
export function lazyScreen<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  return lazy(async () => {
    setLoading(1);
    try {
      return { default: await load() };
    } finally {
      setLoading(-1);
    }
  });
}
