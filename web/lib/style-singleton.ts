import { useEffect } from 'react';

// Stands in for react-style-singleton (through an alias in vite.config.ts). Radix's dialogs lock
// the page's scroll with react-remove-scroll, whose styles that package injects as a <style>
// element: our Content-Security-Policy (style-src 'self', no 'unsafe-inline') blocks it, and the
// browser logs a violation on every dialog. A constructed stylesheet carries the very same rules
// through the CSSOM, which the policy does not govern. Same three exports, same behaviour: the
// rules are added when the first user mounts and removed when the last unmounts.

interface Sheet {
  add(style: string): void;
  remove(): void;
}

export function stylesheetSingleton(): Sheet {
  let counter = 0;
  let sheet: CSSStyleSheet | null = null;
  return {
    add(style) {
      if (counter === 0 && typeof document !== 'undefined' && 'adoptedStyleSheets' in document) {
        sheet = new CSSStyleSheet();
        sheet.replaceSync(style);
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      }
      counter += 1;
    },
    remove() {
      counter -= 1;
      if (counter === 0 && sheet) {
        const gone = sheet;
        document.adoptedStyleSheets = document.adoptedStyleSheets.filter((adopted) => adopted !== gone);
        sheet = null;
      }
    },
  };
}

export function styleHookSingleton() {
  const sheet = stylesheetSingleton();
  return (styles: string, isDynamic?: boolean) => {
    useEffect(() => {
      sheet.add(styles);
      return () => sheet.remove();
      // As the original: the rules are read again only when dynamic ones change.
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, [styles && isDynamic]);
  };
}

export function styleSingleton() {
  const useStyle = styleHookSingleton();
  return function Sheet({ styles, dynamic }: { styles: string; dynamic?: boolean }) {
    useStyle(styles, dynamic);
    return null;
  };
}
