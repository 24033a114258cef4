import { IMPORT_MAX_CELL_CHARS, IMPORT_MAX_ROW_CHARS, IMPORT_MAX_ROWS, linkMessages as m } from '@common/links/link-messages';
import { decodeImport, detectSeparator, type ImportEncoding, type ImportSeparator, quoteLeftOpen } from '@common/links/import-text';
import { parse } from 'csv-parse/sync';
import { undefuse } from '@common/csv/csv-cell';

// Reading an import file: our own CSV (title,longUrl,customUrl,tags,domain,...,rules,variants,redirect_type,
// as GET /api/links.csv writes it) and the CSV exports of Shlink, Kutt, YOURLS and Bitly, told apart by their header row.
// Each data row becomes a creation body for createOne, or the reason it cannot be one.

export type ImportFormat = 'corto' | 'shlink' | 'kutt' | 'yourls' | 'bitly';

/** A row to create (its line in the file, the header being line 1), or the reason it cannot be. */
export interface ImportBody {
  title: string;
  longUrl: string;
  customUrl: string | null;
  tags: string[];
  /** Our own CSV's `domain` column: the custom domain the link goes on (blank: the instance's host). */
  domain?: string | null;
  /** Our own CSV's `rules`, `variants` and `redirect_type` columns, as read (the creation's schema checks them). */
  rules?: unknown;
  variants?: unknown;
  redirectType?: unknown;
}
export type ImportRow = { row: number; body: ImportBody } | { row: number; error: string };

/** 'Long URL', 'long_url' and 'longUrl' are one column. */
const columnKey = (name: string) => name.replace(/^\uFEFF/, '').toLowerCase().replace(/[^a-z0-9]/g, '');

/** Columns only Bitly's exports have, beside its long_url / Long URL. */
const BITLY_MARKS = ['link', 'bitlink', 'custombitlinks', 'custombackhalf', 'custombackhalves'];

/** Which shortener wrote the file, from its columns (normalised by columnKey). */
export function detectFormat(columns: string[]): ImportFormat | undefined {
  const has = (...names: string[]) => names.every((name) => columns.includes(name));
  if (has('shortcode', 'longurl')) return 'shlink'; // shlink-web-client: createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits
  // The API's export (id,link,long_url,title,created_at,tags,custom_bitlinks) or the web app's
  // (Title,Bitlink,Custom back-half,Long URL,Created,Tags...).
  if (has('longurl') && BITLY_MARKS.some((mark) => columns.includes(mark))) return 'bitly';
  if (has('longurl')) return 'corto'; // title,longUrl,customUrl,tags,domain (+ shortLink,clicks,scans,status,createdAt)
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

/** A row refused while it is read (its reason in Spanish). */
class RowRefused extends Error {}

function jsonCell(text: string, refusal: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new RowRefused(refusal);
  }
}

/** Columns of our own CSV whose cells may be longer than IMPORT_MAX_CELL_CHARS (up to a row's length): 20 rules' JSON. */
const LONG_CELL_COLUMNS = new Set(['rules', 'variants']);

/** One record (by normalised column) as a creation body of our API; throws RowRefused for a cell it cannot read. */
export function toBody(format: ImportFormat, get: (column: string) => string): ImportBody {
  const titled = (title: string, longUrl: string) => (title.trim() !== '' ? title : hostOf(longUrl));
  switch (format) {
    case 'corto': {
      const cell = (column: string) => undefuse(get(column));
      const body: ImportBody = { title: cell('title'), longUrl: cell('longurl'), customUrl: cell('customurl') || null, tags: splitTags(cell('tags'), /\|/) };
      // Only our own CSV: Shlink's `domain` names its own domains, not this workspace's.
      const domain = cell('domain');
      if (domain) body.domain = domain;
      // JSON text, as the export writes them; a blank cell: none.
      const rules = cell('rules');
      if (rules) body.rules = jsonCell(rules, m.importRulesJson);
      const variants = cell('variants');
      if (variants) body.variants = jsonCell(variants, m.importVariantsJson);
      const redirectType = cell('redirecttype');
      // A number the schema judges; anything else left as written, for its Spanish refusal.
      if (redirectType) body.redirectType = /^\d{1,3}$/.test(redirectType) ? Number(redirectType) : redirectType;
      return body;
    }
    case 'shlink':
      return { title: titled(get('title'), get('longurl')), longUrl: get('longurl'), customUrl: get('shortcode') || null, tags: splitTags(get('tags'), /\|/) };
    case 'bitly': {
      // custom_bitlinks holds whole addresses (bit.ly/marca), «Custom back-half» the back-half alone.
      const custom = [get('custombitlinks'), get('custombackhalf'), get('custombackhalves')]
        .flatMap((cell) => cell.split(/[|,\s]+/))
        .find((address) => address !== '');
      return { title: titled(get('title'), get('longurl')), longUrl: get('longurl'), customUrl: custom ? backHalf(custom) : null, tags: splitTags(get('tags'), /[|,;]/) };
    }
    case 'yourls':
      return { title: titled(get('title'), get('url')), longUrl: get('url'), customUrl: get('keyword') || null, tags: [] };
    case 'kutt':
      return { title: titled(get('description'), get('target')), longUrl: get('target'), customUrl: get('address') || null, tags: [] };
  }
}

/** What reading a file gives: its format and rows, or the Spanish reason it is refused whole (a 400). */
export type ImportParse =
  | { ok: true; format: ImportFormat; separator: ImportSeparator; encoding: ImportEncoding; rows: ImportRow[] }
  | { ok: false; message: string };

/** Physical lines a file may have: a row a line, with room for blank lines between them. */
const MAX_LINES = 4 * IMPORT_MAX_ROWS + 1;

class Refused extends Error {}

/**
 * The file's lines (every line break, CR-only as old Mac spreadsheets write included), a line
 * longer than a row may be emptied and its number kept to report: csv-parse then never sees more
 * than IMPORT_MAX_ROW_CHARS at once. One pass; stops at MAX_LINES.
 */
function boundedLines(text: string): { lines: string[]; tooLong: number[] } {
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
  return { lines, tooLong };
}

/**
 * Every row of the file, in order, each a body or its error; synchronous, so it runs on the
 * import's own thread (link-import-thread.ts), never on the event loop. The bytes are decoded as
 * UTF-8, UTF-16 or Windows-1252 and split on ',' ';' or tab, whichever the header uses
 * (common/links/import-text.ts). A row is a line: a line that opens a quote and never closes it is
 * a refused row on that line and is emptied first, so it never swallows the lines after it. Bounded
 * before csv-parse sees it (its cost grew with the square of a cell's stray quotes: 100,000 took
 * minutes): at most MAX_LINES lines, each of at most IMPORT_MAX_ROW_CHARS (a longer line is a
 * refused row), a quote inside an unquoted cell taken as a character (relax_quotes, as
 * spreadsheets do), a cell longer than IMPORT_MAX_CELL_CHARS a refused row. The header decides the
 * format (400 when none fits), and more than IMPORT_MAX_ROWS rows are refused before anything is
 * created.
 */
export function parseImport(bytes: Uint8Array): ImportParse {
  const decoded = decodeImport(bytes);
  if (decoded === undefined) return { ok: false, message: m.importNotCsv };
  const separator = detectSeparator(decoded.text);
  const rows: ImportRow[] = [];
  const failed = new Map<number, string>();
  let columns: string[] | undefined;
  let format: ImportFormat | undefined;
  const countRow = () => {
    if (rows.length + failed.size >= IMPORT_MAX_ROWS) throw new Refused(m.importTooManyRows);
  };
  try {
    const { lines, tooLong } = boundedLines(decoded.text);
    for (const row of tooLong) failed.set(row, m.importRowTooLong);
    // A line whose quote is never closed is refused on its own line and emptied, so csv-parse
    // never reads the lines after it as part of its cell (a cell cannot span lines).
    let headerSeen = false;
    lines.forEach((line, i) => {
      const open = line.includes('"') && quoteLeftOpen(line, separator);
      if (open && !headerSeen) throw new Refused(m.importNotCsv);
      if (line.trim() !== '') headerSeen = true;
      if (!open) return;
      failed.set(i + 1, m.importRowMalformed);
      lines[i] = '';
    });
    if (failed.size > IMPORT_MAX_ROWS) throw new Refused(m.importTooManyRows);
    const records = parse(lines.join('\n'), {
      delimiter: separator,
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
      if (record.some((cell, i) => cell.length > IMPORT_MAX_CELL_CHARS && !(format === 'corto' && LONG_CELL_COLUMNS.has(columns![i] ?? '')))) {
        failed.set(info.lines, m.importCellTooLong);
        continue;
      }
      const cells = new Map(columns.map((column, i) => [column, record[i] ?? '']));
      try {
        rows.push({ row: info.lines, body: toBody(format!, (column) => cells.get(column) ?? '') });
      } catch (error) {
        if (!(error instanceof RowRefused)) throw error;
        failed.set(info.lines, error.message);
      }
    }
  } catch (error) {
    return { ok: false, message: error instanceof Refused ? error.message : m.importNotCsv };
  }
  if (!format) return { ok: false, message: m.importNotCsv };
  const refused: ImportRow[] = [...failed].map(([row, error]) => ({ row, error }));
  return { ok: true, format, separator, encoding: decoded.encoding, rows: [...rows, ...refused].sort((a, b) => a.row - b.row) };
}
