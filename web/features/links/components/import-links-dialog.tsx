import type { ImportResult } from '@common/links/link-schemas';
import { useQueryClient } from '@tanstack/react-query';
import { parse } from 'csv-parse/browser/esm/sync';
import { Upload } from 'lucide-react';
import { useState } from 'react';
import { messageOf } from '../../../api/client';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { FilePicker } from '../../../components/ui/file-picker';
import { Label } from '../../../components/ui/label';
import { importLinks } from '../api/import-links';
import { linkKeys } from '../api/link-keys';

const PREVIEW_ROWS = 5;

/** The file's first rows, read in the browser before anything is sent (no rows when it is not CSV). */
async function previewOf(file: File): Promise<string[][]> {
  const text = await file.slice(0, 64 * 1024).text();
  try {
    return parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, to_line: PREVIEW_ROWS + 1, relax_quotes: true }) as string[][];
  } catch {
    return [];
  }
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
            Un CSV con las columnas title, longUrl, customUrl y tags (separadas por «|»), o la exportación de Shlink, Kutt, YOURLS o Bitly.
          </DialogDescription>
        </DialogHeader>
        {open && <ImportForm />}
      </DialogContent>
    </Dialog>
  );
}

function ImportForm() {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string[][]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState('');

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setResult(null);
    setError('');
    setPreview(chosen ? await previewOf(chosen) : []);
  };
  const send = async () => {
    if (!file) return;
    setError('');
    setProgress(0);
    try {
      setResult(await importLinks(file, setProgress));
      await Promise.all([queryClient.invalidateQueries({ queryKey: linkKeys.lists() }), queryClient.invalidateQueries({ queryKey: linkKeys.tags() })]);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setProgress(null);
    }
  };
  const [header, ...rows] = preview;

  return (
    <div className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor="import-file">Archivo CSV</Label>
        <FilePicker
          id="import-file"
          file={file ?? undefined}
          buttonLabel="Elegir archivo"
          emptyLabel="Sin archivo elegido"
          accept=".csv,text/csv"
          onChange={(event) => void choose(event.target.files?.[0] ?? null)}
        />
      </div>
      {header && (
        <div className="overflow-x-auto">
          <table aria-label="Vista previa" className="w-full text-left text-xs text-slate-200">
            <thead>
              <tr>
                {header.map((cell, i) => (
                  <th key={i} className="border-b border-slate-700 px-2 py-1 font-semibold">
                    {cell}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, i) => (
                    <td key={i} className="max-w-48 truncate border-b border-slate-800 px-2 py-1">
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {progress !== null && (
        <div className="grid gap-1">
          <progress aria-label="Progreso de la importación" max={1} value={progress < 1 ? progress : undefined} className="w-full accent-teal-400" />
          <p className="text-xs text-slate-300">{progress < 1 ? `Subiendo el archivo… ${Math.round(progress * 100)} %` : 'Creando los links…'}</p>
        </div>
      )}
      {error && <Alert>{error}</Alert>}
      {result && (
        <div className="grid gap-2" role="status">
          <p className="text-sm text-slate-100">
            {result.created === 1 ? '1 link creado' : `${result.created} links creados`}
            {result.failed.length > 0 && `, ${result.failed.length === 1 ? '1 fila con errores' : `${result.failed.length} filas con errores`}`}.
          </p>
          {result.failed.length > 0 && (
            <div className="max-h-64 overflow-y-auto">
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
      )}
      <div className="flex justify-end">
        <Button onClick={() => void send()} disabled={!file || progress !== null} loading={progress !== null}>
          Importar archivo
        </Button>
      </div>
    </div>
  );
}
