import { COPY_CONFIRMATION_MS } from '@common/constants';
import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toaster';

/** Copies a text (an invitation's address); «Copiado» confirms it for a moment. */
export function CopyTextButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      toast('No se pudo copiar: selecciona el enlace y cópialo a mano.');
    }
  };
  return (
    <Button type="button" variant="outline" onClick={copy} aria-label={copied ? 'Enlace copiado' : label}>
      {copied ? <Check aria-hidden className="text-teal-300" /> : <Copy aria-hidden />}
      {copied ? 'Copiado' : 'Copiar enlace'}
    </Button>
  );
}
