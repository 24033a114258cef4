import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { csvCell } from '@common/csv/csv-cell';
import type { DatabaseReader } from '../db/database-reader';

// A link's clicks as CSV, streamed page by page: memory stays at one page however many clicks
// there are. With SQLite the pages are read on a reader's thread, and the event loop
// still gets a turn between pages (formatting one is a few milliseconds), so redirects keep
// flowing during a million-row export.

// Small pages: with PostgreSQL the driver parses a whole page on the event loop in one go.
export const CSV_PAGE_ROWS = 500;
/** Rows formatted between two turns of the event loop. */
export const CSV_SLICE_ROWS = 250;
export const CSV_COLUMNS = ['date', 'country', 'city', 'device', 'browser', 'os', 'referrer', 'destination'] as const;

export interface ClickCsvRow {
  id: number;
  created_at: number;
  country: string;
  city: string;
  device: string;
  browser: string | null;
  os: string | null;
  referrer: string | null;
  /** Where a rule or variant sent the click; null for the link's own URL. */
  destination: string | null;
}

// Every cell but the date comes from a visitor (the referrer, the city and country of their
// address, what their user agent says): each is quoted and defused (csv-cell.ts), and so is the
// destination, a URL the link's editors wrote. `ownUrl`: the link's URL, for a click that went there.
function csvLine(row: ClickCsvRow, ownUrl: string): string {
  const visitorCells = [row.country, row.city, row.device, row.browser, row.os, row.referrer, row.destination ?? ownUrl];
  return `${[new Date(Number(row.created_at)).toISOString(), ...visitorCells.map((cell) => csvCell(cell, 'always'))].join(',')}\r\n`;
}

/** One page of a link's human clicks after `afterId`, in id order (index clicks_url_id_id_idx). */
export function clickPage(reader: DatabaseReader, urlId: number, afterId: number, limit = CSV_PAGE_ROWS): Promise<ClickCsvRow[]> {
  return reader.rows(
    reader.db
      .selectFrom('clicks')
      // By its primary key, only for a click a rule or variant sent elsewhere.
      .leftJoin('link_destinations', 'link_destinations.id', 'clicks.destination_id')
      .select([
        'clicks.id',
        'clicks.created_at',
        'clicks.country',
        'clicks.city',
        'clicks.device',
        'clicks.browser',
        'clicks.os',
        'clicks.referrer',
        'link_destinations.url as destination',
      ])
      .where('clicks.url_id', '=', urlId)
      .where('clicks.id', '>', afterId)
      // Bots are left out, as in every statistic: the file's rows add up to the card's total.
      .where('clicks.is_bot', '=', 0)
      .orderBy('clicks.id')
      .limit(limit),
  );
}

/**
 * The whole file as text chunks: a UTF-8 byte order mark (so spreadsheets read accents), the
 * header, then the rows, CSV_SLICE_ROWS per chunk with a turn of the event loop after each, so
 * formatting a page never holds redirects up for more than a moment. Stops early if the consumer
 * stops reading.
 */
export async function* clicksCsv(reader: DatabaseReader, urlId: number, ownUrl: string, pageRows = CSV_PAGE_ROWS): AsyncGenerator<string> {
  yield `\uFEFF${CSV_COLUMNS.join(',')}\r\n`;
  let afterId = 0;
  for (;;) {
    const rows = await clickPage(reader, urlId, afterId, pageRows);
    for (let i = 0; i < rows.length; i += CSV_SLICE_ROWS) {
      yield rows
        .slice(i, i + CSV_SLICE_ROWS)
        .map((row) => csvLine(row, ownUrl))
        .join('');
      await yieldToEventLoop();
    }
    if (rows.length < pageRows) return;
    afterId = Number(rows[rows.length - 1]!.id);
  }
}

/** A filename safe in any Content-Disposition: letters, digits, '-' and '_' only. */
export function csvFilename(code: string, now: number): string {
  const safe = code.replace(/[^A-Za-z0-9_-]/g, '') || 'link';
  return `clicks-${safe}-${new Date(now).toISOString().slice(0, 10)}.csv`;
}
