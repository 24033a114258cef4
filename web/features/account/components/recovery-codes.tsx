import { Check, Copy, Download } from 'lucide-react';
import { useState } from 'react';
import { Button, buttonVariants } from '../../../components/ui/button';

/** The name the codes are saved under. */
export const RECOVERY_CODES_FILE = 'corto-codigos-de-recuperacion.txt';

/**
 * The recovery codes just made, shown once: copied or downloaded as a text file, then put away with
 * «Ya los he guardado» (they are never shown again).
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const [copyFailed, setCopyFailed] = useState(false);
  const text = `Códigos de recuperación de Corto (cada uno sirve una sola vez):\r\n${codes.join('\r\n')}\r\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied(true);
      setCopyFailed(false);
    } catch {
      setCopyFailed(true);
    }
  };
  return (
    <div className="grid gap-3">
      <p role="status" className="text-teal-300">
        Verificación en dos pasos activada.
      </p>
      <p className="text-sm text-slate-300">
        Guarda estos códigos de recuperación en un lugar seguro: cada uno sirve una vez si pierdes el móvil. No volverás a verlos.
      </p>
      <ul aria-label="Códigos de recuperación" className="grid grid-cols-2 gap-2 font-mono text-sm">
        {codes.map((code) => (
          <li key={code} className="rounded bg-slate-800 px-2 py-1">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => void copy()} aria-label={copied ? 'Códigos copiados' : 'Copiar los códigos'}>
          {copied ? <Check aria-hidden className="text-teal-300" /> : <Copy aria-hidden />}
          {copied ? 'Copiados' : 'Copiar'}
        </Button>
        {/* A data: address: the file is made here, nothing is asked of the server again. */}
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download={RECOVERY_CODES_FILE}
          className={buttonVariants({ variant: 'outline' })}
          aria-label="Descargar los códigos"
        >
          <Download aria-hidden />
          Descargar
        </a>
        <Button onClick={onDone}>Ya los he guardado</Button>
      </div>
      {copyFailed && (
        <p role="alert" className="text-sm text-red-300">
          El navegador no ha dejado copiar: selecciona los códigos y cópialos a mano, o descárgalos.
        </p>
      )}
    </div>
  );
}
