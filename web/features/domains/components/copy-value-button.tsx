import { Check, Copy } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toaster';
import { useCopy } from '../../../components/ui/use-copy';

/** Copies one value of the TXT record (its name or its value); «Copiado» confirms it for a moment. */
export function CopyValueButton({ text, label }: { text: string; label: string }) {
  const { copied, copy: copyText } = useCopy();
  const copy = async () => {
    if (!(await copyText(text)).ok) toast('No se pudo copiar: selecciona el texto y cópialo a mano.');
  };
  return (
    <Button type="button" size="sm" variant="outline" onClick={copy} aria-label={copied ? `${label}: copiado` : label}>
      {copied ? <Check aria-hidden className="text-teal-300" /> : <Copy aria-hidden />}
      {copied ? 'Copiado' : 'Copiar'}
    </Button>
  );
}
