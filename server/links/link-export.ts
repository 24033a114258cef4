import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { linkStatusLabels } from '@common/links/link-messages';
import type { AppContext } from '../app-context';
import type { DatabaseReader } from '../db/database-reader';
import type { UrlRow } from '../db/schema';
import { csvCell } from '@common/csv/csv-cell';
import { domainHostnamesOf } from './link-domain';
import { linkStatusOf, redirectTypeOf, shortLinkOf } from './link-mapper';

// GET /api/links.csv: every link of the workspace, oldest first, streamed a page at a time (memory
// stays at one page whatever the count), read through the links reader (SQLite: its thread) with a
// turn of the event loop between pages. Cells go through csvCell (common/csv/csv-cell.ts), as the clicks
// export's do: RFC 4180 quoting, and an apostrophe wherever a spreadsheet splitting on ',' or ';'
// would start a formula (the importer takes them off again, so a file exported here imports back
// as it was). The status column is in words, as the dashboard's badges say it ('Activo', 'En pausa'...).

export const EXPORT_PAGE_ROWS = 500;
export const EXPORT_COLUMNS = [
  'title',
  'longUrl',
  'customUrl',
  'tags',
  'domain',
  'shortLink',
  'clicks',
  'scans',
  'status',
  'createdAt',
  // Where visits go (docs/rules-api.md): JSON text as the API gives them, empty for a plain link
  // (none, and the default 302); the import reads them back.
  'rules',
  'variants',
  'redirect_type',
] as const;
/** What separates a link's tags in one cell (a tag can never hold it). */
export const TAG_SEPARATOR = '|';

function exportPage(reader: DatabaseReader, workspaceId: number, after: { createdAt: number; id: number } | undefined) {
  let query = reader.db.selectFrom('urls').selectAll().where('workspace_id', '=', workspaceId);
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('created_at', '>', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)])]),
    );
  }
  // The walk of the list's own index (workspace_id, created_at, id, ...), oldest first.
  return reader.rows(query.orderBy('created_at').orderBy('id').limit(EXPORT_PAGE_ROWS));
}

async function pageTags(reader: DatabaseReader, ids: number[]): Promise<Map<number, string[]>> {
  const byLink = new Map<number, string[]>();
  if (ids.length === 0) return byLink;
  const rows = await reader.rows(
    reader.db
      .selectFrom('link_tags')
      .innerJoin('tags', 'tags.id', 'link_tags.tag_id')
      .select(['link_tags.url_id', 'tags.name'])
      .where('link_tags.url_id', 'in', ids)
      .orderBy('tags.name_key'),
  );
  for (const row of rows) byLink.set(Number(row.url_id), [...(byLink.get(Number(row.url_id)) ?? []), row.name]);
  return byLink;
}

/** domain: the hostname of its custom domain, empty on the instance's host (the import reads it back so). */
function exportLine(row: UrlRow, tags: string[], domain: string | null, publicBaseUrl: string, now: number): string {
  const cells = [
    row.title,
    row.original_url,
    row.custom_url,
    tags.join(TAG_SEPARATOR),
    domain ?? '',
    shortLinkOf(publicBaseUrl, { shortCode: row.short_url, customUrl: row.custom_url, domain }),
    String(row.click_count),
    String(row.scan_count),
    linkStatusLabels[linkStatusOf(row, now)],
    new Date(Number(row.created_at)).toISOString(),
    row.rules ?? '',
    row.variants ?? '',
    redirectTypeOf(row.redirect_type) === 302 ? '' : String(redirectTypeOf(row.redirect_type)),
  ];
  return `${cells.map((cell) => csvCell(cell)).join(',')}\r\n`;
}

/** The file as text chunks: a byte order mark (spreadsheets then read accents), the header, a chunk per page. */
export async function* linksCsv(reader: DatabaseReader, config: Pick<AppContext['config'], 'publicBaseUrl'>, workspaceId: number): AsyncGenerator<string> {
  yield `\uFEFF${EXPORT_COLUMNS.join(',')}\r\n`;
  let after: { createdAt: number; id: number } | undefined;
  for (;;) {
    const rows = await exportPage(reader, workspaceId, after);
    const tags = await pageTags(reader, rows.map((row) => Number(row.id)));
    const domains = await domainHostnamesOf(reader, rows.map((row) => row.domain_id));
    const now = Date.now();
    const domainOf = (row: UrlRow) => (row.domain_id === null ? null : (domains.get(Number(row.domain_id)) ?? null));
    yield rows.map((row) => exportLine(row, tags.get(Number(row.id)) ?? [], domainOf(row), config.publicBaseUrl, now)).join('');
    if (rows.length < EXPORT_PAGE_ROWS) return;
    const last = rows.at(-1)!;
    after = { createdAt: Number(last.created_at), id: Number(last.id) };
    await yieldToEventLoop();
  }
}

/** links-YYYY-MM-DD.csv */
export const exportFilename = (now: number) => `links-${new Date(now).toISOString().slice(0, 10)}.csv`;
