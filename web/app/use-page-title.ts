import { useEffect } from 'react';

/** Sets the tab's title for the current screen. */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = title ? `${title} · Corto` : 'Corto';
  }, [title]);
}
