import { COPY_CONFIRMATION_MS } from '@common/constants';
import { useEffect, useState } from 'react';

/**
 * Copying a text with a confirmation that lasts a moment: `copied` is true for COPY_CONFIRMATION_MS
 * after a copy succeeds. `copy` answers whether the clipboard took it; each button says a failure
 * its own way.
 */
export function useCopy(): { copied: boolean; copy: (text: string) => Promise<{ ok: true } | { ok: false; error: unknown }> } {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      return { ok: true as const };
    } catch (error) {
      setCopied(false);
      return { ok: false as const, error };
    }
  };
  return { copied, copy };
}
