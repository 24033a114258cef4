import { detectedText } from '@common/links/import-text';
import type { ImportResult } from '@common/links/link-schemas';
import type { CreationQuotaState } from '@common/links/quota-schemas';
import { useQueryClient } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { messageOf } from '../../../api/client';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { FilePicker } from '../../../components/ui/file-picker';
import { Label } from '../../../components/ui/label';
import { formatCount, formatNumber } from '../../../lib/format';
import { importLinks } from '../api/import-links';
import { getCreationQuota, getImportProgress } from '../api/import-status';
import { linkKeys } from '../api/link-keys';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { type ImportPreview, previewOf } from './import-preview';

const rowNoun = { one: 'fila', other: 'filas' };
/** How often the server is asked how many rows are done while it creates them. */
const PROGRESS_POLL_MS = 500;

/** '1 minuto', '53 minutos': a wait in whole minutes, rounded up. */
export function minutesText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? '1 minuto' : `${formatNumber(minutes)} minutos`;
}

/** 'la fila 3', 'las filas 3, 7 y 9' */
function rowsText(lines: number[]): string {
  if (lines.length === 1) return `La fila ${lines[0]}`;
  const shown = lines.slice(0, 10).map(String);
  const last = lines.length > 10 ? `${lines.length - 10} más` : shown.pop()!;
  return `Las filas ${shown.join(', ')} y ${last}`;
}

/** What the hour's quota lets through of the file, said before it is sent. */
function quotaText(rowCount: number, quota: CreationQuotaState | undefined): string {
  const rows = `El archivo tiene ${formatCount(rowCount, rowNoun)}`;
  if (!quota || quota.left === null || quota.perHour === null) return `${rows}.`;
  if (quota.left === 0) {
    const wait = quota.retryAfterSeconds ? `: podrás volver a crear links dentro de ${minutesText(quota.retryAfterSeconds)}` : '';
    return `${rows}, pero tu cuenta ya ha creado los ${formatNumber(quota.perHour)} links que puede crear en una hora${wait}. Las filas que pasen del límite no se crearán.`;
  }
  const left = formatCount(quota.left, { one: 'link más', other: 'links más' });
  if (quota.left >= rowCount) return `${rows}; en esta hora tu cuenta puede crear ${left}, así que caben todas.`;
  return `${rows}, pero en esta hora tu cuenta solo puede crear ${left} (el límite es de ${formatNumber(quota.perHour)} por hora, importaciones incluidas): se crearán las ${formatNumber(quota.left)} primeras filas válidas y el resto se rechazará.`;
}

/** 'Importar': a CSV file, a preview of its first rows, the upload's progress, then each row's result. */
export function ImportLinksDialog() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <Upload aria-hidden /> Importar
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Importar links</DialogTitle>
          <DialogDescription>
            Un CSV con las columnas title, longUrl, customUrl y tags (separadas por «|»), o la exportación de Shlink, Kutt, YOURLS o Bitly. Vale el
            que guarda Excel (con punto y coma). Cada fila cuenta para el límite de links por hora.
          </DialogDescription>
        </DialogHeader>
        {open && <ImportForm />}
      </DialogContent>
    </Dialog>
  );
}

function ImportForm() {
  const scope = useWorkspaceScope();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const outcome = useRef<HTMLDivElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | undefined>();
  const [quota, setQuota] = useState<CreationQuotaState | undefined>();
  const [progress, setProgress] = useState<number | null>(null);
  const [done, setDone] = useState<{ done: number; total: number } | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState('');

  // Asked from the start: the server knows the rows once the file is in, whatever the upload's events said.
  const importing = progress !== null;
  useEffect(() => {
    if (!importing) return;
    const timer = setInterval(() => {
      getImportProgress(scope)
        .then((now) => now.running && now.total > 0 && setDone({ done: now.done, total: now.total }))
        .catch(() => undefined); // the count is a courtesy: «Creando los links…» stays
    }, PROGRESS_POLL_MS);
    return () => clearInterval(timer);
  }, [importing, scope]);
  // The outcome is said where the eye is: scrolled to, and focus moved to it.
  useEffect(() => {
    if (!result && !error) return;
    outcome.current?.scrollIntoView({ block: 'nearest' });
    outcome.current?.focus();
  }, [result, error]);

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setResult(null);
    setError('');
    setPreview(chosen ? previewOf(new Uint8Array(await chosen.arrayBuffer())) : undefined);
    setQuota(chosen ? await getCreationQuota(scope).catch(() => undefined) : undefined);
  };
  const send = async () => {
    if (!file) return;
    setError('');
    setProgress(0);
    setDone(null);
    try {
      setResult(await importLinks(scope, file, setProgress));
      // The file is done: «Importar archivo» waits for another one, so nothing is imported twice.
      setFile(null);
      setPreview(undefined);
      setQuota(undefined);
      if (input.current) input.current.value = '';
      await Promise.all([queryClient.invalidateQueries({ queryKey: linkKeys.lists() }), queryClient.invalidateQueries({ queryKey: linkKeys.tags() })]);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setProgress(null);
      setDone(null);
    }
  };

  return (
    <div className="grid min-w-0 gap-4">
      <div className="grid min-w-0 gap-2">
        <Label htmlFor="import-file">Archivo CSV</Label>
        <FilePicker
          ref={input}
          id="import-file"
          file={file ?? undefined}
          buttonLabel="Elegir archivo"
          emptyLabel="Sin archivo elegido"
          accept=".csv,.txt,text/csv"
          onChange={(event) => void choose(event.target.files?.[0] ?? null)}
        />
      </div>
      {file && preview && <PreviewTable preview={preview} />}
      {file && preview && <p className="text-sm text-slate-200">{quotaText(preview.rowCount, quota)}</p>}
      {file && preview && preview.malformed.length > 0 && (
        <p className="rounded-lg border border-amber-400/40 bg-amber-950/40 px-3 py-2 text-sm text-amber-100">
          {rowsText(preview.malformed)} {preview.malformed.length === 1 ? 'no tiene' : 'no tienen'} el formato CSV correcto (una comilla se abre y no
          se cierra): {preview.malformed.length === 1 ? 'no se importará' : 'no se importarán'}. Las demás filas sí.
        </p>
      )}
      {progress !== null && (
        <div className="grid gap-1">
          <progress
            aria-label="Progreso de la importación"
            max={done ? done.total : 1}
            value={done ? done.done : progress < 1 ? progress : undefined}
            className="w-full accent-teal-400"
          />
          <p className="text-xs text-slate-300">
            {done
              ? `Creando ${formatNumber(done.done)} de ${formatNumber(done.total)}…`
              : progress < 1
                ? `Subiendo el archivo… ${Math.round(progress * 100)} %`
                : 'Creando los links…'}
          </p>
        </div>
      )}
      <div ref={outcome} tabIndex={-1} className="grid gap-2 outline-none">
        {error && <Alert>{error}</Alert>}
        {result && <ResultSummary result={result} />}
      </div>
      <div className="flex justify-end">
        <Button onClick={() => void send()} disabled={!file || progress !== null} loading={progress !== null}>
          Importar archivo
        </Button>
      </div>
    </div>
  );
}

/** The detected separator and encoding, and the first rows numbered as lines of the file. */
function PreviewTable({ preview }: { preview: ImportPreview }) {
  return (
    <div className="grid min-w-0 gap-2">
      <p className="text-xs text-slate-300">{detectedText(preview.separator, preview.encoding)}</p>
      {/* Scrolls sideways on a phone: reachable by keyboard, so its arrows scroll it. */}
      <div tabIndex={0} role="region" aria-label="Primeras filas del archivo" className="overflow-x-auto rounded focus-visible:outline-2 focus-visible:outline-teal-300">
        <table aria-label="Vista previa" className="w-full text-left text-xs text-slate-200">
          <thead>
            <tr>
              <th scope="col" className="border-b border-slate-700 px-2 py-1 font-semibold">
                Fila
              </th>
              {preview.header.map((cell, i) => (
                <th key={i} scope="col" className="border-b border-slate-700 px-2 py-1 font-semibold">
                  {cell}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row) => (
              <tr key={row.line}>
                <th scope="row" className="border-b border-slate-800 px-2 py-1 font-normal tabular-nums">
                  {row.line}
                </th>
                {row.cells ? (
                  row.cells.map((cell, i) => (
                    <td key={i} className="max-w-48 truncate border-b border-slate-800 px-2 py-1">
                      {cell}
                    </td>
                  ))
                ) : (
                  <td colSpan={preview.header.length} className="border-b border-slate-800 px-2 py-1 text-amber-100">
                    Comillas sin cerrar: esta fila no se importará
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** How many were created, how long until the next creation when the hour is full, and each refused row. */
function ResultSummary({ result }: { result: ImportResult }) {
  return (
    <div className="grid gap-2" role="status">
      <p className="text-sm text-slate-100">
        {result.created === 1 ? '1 link creado' : `${formatNumber(result.created)} links creados`}
        {result.failed.length > 0 && `, ${formatCount(result.failed.length, { one: 'fila con errores', other: 'filas con errores' })}`}.
        {result.retryAfterSeconds !== null &&
          ` Has llegado al límite de links por hora${result.overQuota > 0 ? ` (${formatCount(result.overQuota, rowNoun)} no se ${result.overQuota === 1 ? 'creó' : 'crearon'} por él)` : ''}: podrás crear el próximo link dentro de ${minutesText(result.retryAfterSeconds)}.`}
      </p>
      {result.failed.length > 0 && (
        <div tabIndex={0} role="region" aria-label="Filas no importadas, con su motivo" className="max-h-64 overflow-y-auto rounded focus-visible:outline-2 focus-visible:outline-teal-300">
          <table aria-label="Filas no importadas" className="w-full text-left text-sm text-slate-200">
            <thead>
              <tr>
                <th className="border-b border-slate-700 px-2 py-1">Fila</th>
                <th className="border-b border-slate-700 px-2 py-1">Motivo</th>
              </tr>
            </thead>
            <tbody>
              {result.failed.map((failure) => (
                <tr key={failure.row}>
                  <td className="border-b border-slate-800 px-2 py-1 tabular-nums">{failure.row}</td>
                  <td className="border-b border-slate-800 px-2 py-1">{failure.error}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
