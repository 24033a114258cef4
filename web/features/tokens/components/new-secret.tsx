import type { CreatedToken } from '@common/tokens/token-schemas';
import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';

/** The secret of a token just created, with a copy button: it is never shown again. */
export function NewSecret({ created, onDone }: { created: CreatedToken; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied(true);
    } catch (error) {
      console.error('Failed to copy the token:', error);
    }
  };
  return (
    <section aria-labelledby="new-secret-title" className="grid gap-3 rounded-xl border border-teal-400/50 bg-teal-950/40 p-5">
      <h2 id="new-secret-title" className="font-semibold">
        Token «{created.token.name}» creado
      </h2>
      <p className="text-sm text-slate-200">Cópialo ahora: por seguridad no volverás a verlo.</p>
      <div className="flex flex-wrap items-center gap-2">
        <code aria-label="Token secreto" className="min-w-0 flex-1 break-all rounded-lg bg-slate-950 px-3 py-2 text-sm text-teal-200">
          {created.secret}
        </code>
        <Button variant="outline" onClick={copy} aria-label={copied ? 'Token copiado' : 'Copiar token'}>
          {copied ? <Check aria-hidden className="text-teal-300" /> : <Copy aria-hidden />}
          {copied ? 'Copiado' : 'Copiar'}
        </Button>
      </div>
      <div>
        <Button variant="ghost" onClick={onDone}>
          Ya lo he guardado
        </Button>
      </div>
    </section>
  );
}
