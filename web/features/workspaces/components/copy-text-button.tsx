import { Check, Copy } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toaster';
import { useCopy } from '../../../components/ui/use-copy';

/** Copies a text (an invitation's address); «Copiado» confirms it for a moment. */
export function CopyTextButton({ text, label }: { text: string; label: string }) {
  const { copied, copy: copyText } = useCopy();
  const copy = async () => {
    if (!(await copyText(text)).ok) toast('No se pudo copiar: selecciona el enlace y cópialo a mano.');
  };
  return (
    <Button type="button" variant="outline" onClick={copy} aria-label={copied ? 'Enlace copiado' : label}>
      {copied ? <Check aria-hidden className="text-teal-300" /> : <Copy aria-hidden />}
      {copied ? 'Copiado' : 'Copiar enlace'}
    </Button>
  );
}
