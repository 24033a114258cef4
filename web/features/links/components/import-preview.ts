import { decodeImport, detectSeparator, type ImportEncoding, type ImportSeparator, quoteLeftOpen } from '@common/links/import-text';
import { parse } from 'csv-parse/browser/esm/sync';

// The import dialog's preview, read in the browser before anything is sent, the way the server
// reads the file (server/links/link-import.ts): the same decoding and separator
// (common/links/import-text.ts), a row a line, numbered as lines of the file (the header is 1).

export const PREVIEW_ROWS = 5;

/** A line of the file: its cells, or undefined when its quotes are not closed (the server refuses it). */
export interface PreviewRow {
  line: number;
  cells: string[] | undefined;
}

export interface ImportPreview {
  separator: ImportSeparator;
  encoding: ImportEncoding;
  header: string[];
  /** The first PREVIEW_ROWS rows. */
  rows: PreviewRow[];
  /** Every row of the file (its lines after the header that are not blank). */
  rowCount: number;
  /** The lines of rows whose quotes are not closed, all through the file. */
  malformed: number[];
}

function cellsOf(line: string, delimiter: ImportSeparator): string[] | undefined {
  try {
    const records = parse(line, { delimiter, relax_column_count: true, relax_quotes: true, trim: true }) as string[][];
    return records.length === 1 ? records[0] : undefined;
  } catch {
    return undefined;
  }
}

/** The file read for the preview, or undefined when it is not text (the server then says why). */
export function previewOf(bytes: Uint8Array): ImportPreview | undefined {
  const decoded = decodeImport(bytes);
  if (!decoded) return undefined;
  const separator = detectSeparator(decoded.text);
  const lines = decoded.text.split(/\r\n|\r|\n/);
  let header: string[] | undefined;
  const rows: PreviewRow[] = [];
  const malformed: number[] = [];
  let rowCount = 0;
  lines.forEach((text, i) => {
    if (text.trim() === '') return;
    if (!header) {
      header = cellsOf(text, separator) ?? [text];
      return;
    }
    rowCount += 1;
    // As the server: a quote opened and never closed refuses its line (only lines with a quote are looked at).
    const open = text.includes('"') && quoteLeftOpen(text, separator);
    const cells = open ? undefined : rows.length < PREVIEW_ROWS ? cellsOf(text, separator) : [];
    if (!cells) malformed.push(i + 1);
    if (rows.length < PREVIEW_ROWS) rows.push({ line: i + 1, cells });
  });
  if (!header) return undefined;
  return { separator, encoding: decoded.encoding, header, rows, rowCount, malformed };
}
