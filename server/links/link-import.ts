import { Readable } from 'node:stream';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { IMPORT_MAX_ROWS, linkMessages as m } from '@common/links/link-messages';
import { parse } from 'csv-parse';
import { AppError } from '../http/app-error';

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

/** Our export put an apostrophe before what a spreadsheet would run as a formula (csvCell): taken off. */
const undefused = (text: string) => (/^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text);

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
      const cell = (column: string) => undefused(get(column));
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

/** Refuses what is not text: a NUL byte, or bytes that are not UTF-8. */
function assertText(bytes: Buffer): void {
  if (bytes.subarray(0, 64 * 1024).includes(0)) throw new AppError('validation', m.importNotCsv, { file: [m.importNotCsv] });
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError('validation', m.importNotCsv, { file: [m.importNotCsv] });
  }
}

const CHUNK_BYTES = 8 * 1024;

/** The file a chunk at a time, each after a turn of the event loop (I/O included, unlike a microtask). */
async function* inTurns(bytes: Buffer): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    await yieldToEventLoop();
    yield bytes.subarray(at, at + CHUNK_BYTES);
  }
}

/**
 * Every row of the file, in order, each a body or its error. The file is fed to csv-parse 8 kB at
 * a time, each after a turn of the event loop, so parsing 10 MB never stalls redirects for more
 * than a few milliseconds (fed at once, 10,000 rows held the loop ~370 ms). A row that is not
 * well-formed CSV is reported and skipped; the header decides the format (400 when none fits),
 * and more than IMPORT_MAX_ROWS rows are refused before anything is created.
 */
export async function readImport(bytes: Buffer): Promise<{ format: ImportFormat; rows: ImportRow[] }> {
  assertText(bytes);
  const malformed: ImportRow[] = [];
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_error: true, info: true, trim: true });
  parser.on('skip', (error: { lines?: number }) => malformed.push({ row: error.lines ?? 0, error: m.importRowMalformed }));
  Readable.from(inTurns(bytes)).pipe(parser);

  let columns: string[] | undefined;
  let format: ImportFormat | undefined;
  const rows: ImportRow[] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!columns) {
        columns = record.map(columnKey);
        format = detectFormat(columns);
        if (!format) throw new AppError('validation', m.importUnknownColumns, { file: [m.importUnknownColumns] });
        continue;
      }
      if (rows.length + malformed.length >= IMPORT_MAX_ROWS) throw new AppError('validation', m.importTooManyRows, { file: [m.importTooManyRows] });
      const cells = new Map(columns.map((column, i) => [column, record[i] ?? '']));
      rows.push({ row: info.lines, body: toBody(format!, (column) => cells.get(column) ?? '') });
    }
  } catch (error) {
    parser.destroy();
    if (error instanceof AppError) throw error;
    throw new AppError('validation', m.importNotCsv, { file: [m.importNotCsv] });
  }
  if (!format) throw new AppError('validation', m.importNotCsv, { file: [m.importNotCsv] });
  return { format, rows: [...rows, ...malformed].sort((a, b) => a.row - b.row) };
}
