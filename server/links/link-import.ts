import { IMPORT_MAX_CELL_CHARS, IMPORT_MAX_ROW_CHARS, IMPORT_MAX_ROWS, linkMessages as m } from '@common/links/link-messages';
import { parse } from 'csv-parse/sync';
import { undefuse } from '../csv/csv-cell';

// Reading an import file: our own CSV (title,longUrl,customUrl,tags, as GET /api/links.csv writes
// it) and the CSV exports of Shlink, Kutt, YOURLS and Bitly, told apart by their header row.
// Each data row becomes a creation body for createOne, or the reason it cannot be one.

export type ImportFormat = 'corto' | 'shlink' | 'kutt' | 'yourls' | 'bitly';

/** A row to create (its line in the file, the header being line 1), or the reason it cannot be. */
export interface ImportBody {
  title: string;
  longUrl: string;
  customUrl: string | null;
  tags: string[];
}
export type ImportRow = { row: number; body: ImportBody } | { row: number; error: string };

/** 'Long URL', 'long_url' and 'longUrl' are one column. */
const columnKey = (name: string) => name.replace(/^\uFEFF/, '').toLowerCase().replace(/[^a-z0-9]/g, '');

/** Which shortener wrote the file, from its columns (normalised by columnKey). */
export function detectFormat(columns: string[]): ImportFormat | undefined {
  const has = (...names: string[]) => names.every((name) => columns.includes(name));
  if (has('shortcode', 'longurl')) return 'shlink'; // shlink-web-client: createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits
  if (has('longurl') && (has('link') || has('bitlink') || has('custombitlinks'))) return 'bitly'; // id,link,long_url,title,created_at,tags,custom_bitlinks
  if (has('longurl')) return 'corto'; // title,longUrl,customUrl,tags (+ shortLink,clicks,scans,status,createdAt)
  if (has('keyword', 'url')) return 'yourls'; // keyword,url,title,timestamp,ip,clicks
  if (has('target', 'address')) return 'kutt'; // address,target,description,visit_count,created_at,link,...
  return undefined;
}


const splitTags = (text: string, separators: RegExp) =>
  text
    .split(separators)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');

/** A destination's host, as a title for rows that have none. */
function hostOf(url: string): string {
  try {
    return new URL(url.trim()).hostname || url;
  } catch {
    return url;
  }
}

/** The last path segment of a short address ('https://bit.ly/mi-enlace' -> 'mi-enlace'). */
function backHalf(address: string): string {
  const trimmed = address.trim().replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** One record (by normalised column) as a creation body of our API. */
export function toBody(format: ImportFormat, get: (column: string) => string): ImportBody {
  const titled = (title: string, longUrl: string) => (title.trim() !== '' ? title : hostOf(longUrl));
  switch (format) {
    case 'corto': {
      const cell = (column: string) => undefuse(get(column));
      return { title: cell('title'), longUrl: cell('longurl'), customUrl: cell('customurl') || null, tags: splitTags(cell('tags'), /\|/) };
    }
    case 'shlink':
      return { title: titled(get('title'), get('longurl')), longUrl: get('longurl'), customUrl: get('shortcode') || null, tags: splitTags(get('tags'), /\|/) };
    case 'bitly': {
      const custom = get('custombitlinks').split(/[|,\s]+/).find((address) => address !== '');
      return { title: titled(get('title'), get('longurl')), longUrl: get('longurl'), customUrl: custom ? backHalf(custom) : null, tags: splitTags(get('tags'), /[|,;]/) };
    }
    case 'yourls':
      return { title: titled(get('title'), get('url')), longUrl: get('url'), customUrl: get('keyword') || null, tags: [] };
    case 'kutt':
      return { title: titled(get('description'), get('target')), longUrl: get('target'), customUrl: get('address') || null, tags: [] };
  }
}

/** What reading a file gives: its format and rows, or the Spanish reason it is refused whole (a 400). */
export type ImportParse = { ok: true; format: ImportFormat; rows: ImportRow[] } | { ok: false; message: string };

/** Physical lines a file may have: a row a line, with room for blank lines between them. */
const MAX_LINES = 4 * IMPORT_MAX_ROWS + 1;

class Refused extends Error {}

/** The file's text, or undefined when it is not text (a NUL byte, or bytes that are not UTF-8). */
function textOf(bytes: Uint8Array): string | undefined {
  if (bytes.subarray(0, 64 * 1024).includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The text with every line break made \n (CR-only files, as old Mac spreadsheets write, included)
 * and every line longer than a row may be emptied, its number kept to report: csv-parse then never
 * sees more than IMPORT_MAX_ROW_CHARS in a line. One pass; stops at MAX_LINES.
 */
function boundedLines(text: string): { text: string; tooLong: number[] } {
  const lines: string[] = [];
  const tooLong: number[] = [];
  const breaks = /\r\n|\r|\n/g;
  let at = 0;
  for (;;) {
    const found = breaks.exec(text);
    const line = text.slice(at, found ? found.index : text.length);
    if (lines.length === MAX_LINES) throw new Refused(m.importTooManyRows);
    if (line.length > IMPORT_MAX_ROW_CHARS) {
      // A header this long is no header of ours or of any shortener.
      if (lines.length === 0) throw new Refused(m.importNotCsv);
      tooLong.push(lines.length + 1);
      lines.push('');
    } else lines.push(line);
    if (!found) break;
    at = breaks.lastIndex;
  }
  return { text: lines.join('\n'), tooLong };
}

/**
 * Every row of the file, in order, each a body or its error; synchronous, so it runs on the
 * import's own thread (link-import-thread.ts), never on the event loop. Bounded before csv-parse
 * sees it (its cost grew with the square of a cell's stray quotes: 100,000 took minutes): at most
 * MAX_LINES lines, each of at most IMPORT_MAX_ROW_CHARS (a longer line is a refused row), a quote
 * inside an unquoted cell taken as a character (relax_quotes, as spreadsheets do), a cell longer
 * than IMPORT_MAX_CELL_CHARS a refused row. A row that is not well-formed CSV is reported and
 * skipped; the header decides the format (400 when none fits), and more than IMPORT_MAX_ROWS rows
 * are refused before anything is created.
 */
export function parseImport(bytes: Uint8Array): ImportParse {
  const text = textOf(bytes);
  if (text === undefined) return { ok: false, message: m.importNotCsv };
  const rows: ImportRow[] = [];
  const failed = new Map<number, string>();
  let columns: string[] | undefined;
  let format: ImportFormat | undefined;
  const countRow = () => {
    if (rows.length + failed.size >= IMPORT_MAX_ROWS) throw new Refused(m.importTooManyRows);
  };
  try {
    const bounded = boundedLines(text.replace(/^\uFEFF/, ''));
    for (const row of bounded.tooLong) failed.set(row, m.importRowTooLong);
    if (failed.size > IMPORT_MAX_ROWS) throw new Refused(m.importTooManyRows);
    const records = parse(bounded.text, {
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      info: true,
      trim: true,
      max_record_size: IMPORT_MAX_ROW_CHARS,
      on_skip: (error) => {
        const row = (error as { lines?: number } | undefined)?.lines ?? 0;
        if (failed.has(row)) return;
        countRow();
        failed.set(row, m.importRowMalformed);
      },
    }) as unknown as { record: string[]; info: { lines: number } }[];
    for (const { record, info } of records) {
      if (!columns) {
        columns = record.map(columnKey);
        format = detectFormat(columns);
        if (!format) throw new Refused(m.importUnknownColumns);
        continue;
      }
      countRow();
      if (record.some((cell) => cell.length > IMPORT_MAX_CELL_CHARS)) {
        failed.set(info.lines, m.importCellTooLong);
        continue;
      }
      const cells = new Map(columns.map((column, i) => [column, record[i] ?? '']));
      rows.push({ row: info.lines, body: toBody(format!, (column) => cells.get(column) ?? '') });
    }
  } catch (error) {
    return { ok: false, message: error instanceof Refused ? error.message : m.importNotCsv };
  }
  if (!format) return { ok: false, message: m.importNotCsv };
  const refused: ImportRow[] = [...failed].map(([row, error]) => ({ row, error }));
  return { ok: true, format, rows: [...rows, ...refused].sort((a, b) => a.row - b.row) };
}
