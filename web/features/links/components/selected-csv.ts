import { csvCell } from '@common/csv/csv-cell';
import { linkStatusLabels } from '@common/links/link-messages';
import type { Link } from '@common/links/link-schemas';

// «Exportar» on selected links: the same columns and cells as GET /api/links.csv (which exports
// every link), made in the browser from the links already read.

const COLUMNS = ['title', 'longUrl', 'customUrl', 'tags', 'shortLink', 'clicks', 'scans', 'status', 'createdAt'] as const;

/** The CSV text, with a byte order mark so spreadsheets read it as UTF-8. */
export function selectedLinksCsv(links: Link[]): string {
  const lines = links.map((link) =>
    [link.title, link.originalUrl, link.customUrl, link.tags.join('|'), link.shortLink, String(link.clicks), String(link.scans), linkStatusLabels[link.status], link.createdAt]
      .map((value) => csvCell(value))
      .join(','),
  );
  return `\uFEFF${[COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}

/** Saves the CSV as a download, named like the full export. */
export function downloadCsv(text: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
