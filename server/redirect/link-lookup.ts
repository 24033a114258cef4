import type { Database } from '../db/database';

// Printable ASCII without spaces: anything else cannot go into a Location header as it is.
const headerSafe = /^[\x21-\x7e]*$/;

/** The Location header for a stored URL: percent-encoded if it holds spaces or non-ASCII characters. */
export function locationFor(originalUrl: string): string {
  if (headerSafe.test(originalUrl)) return originalUrl;
  try {
    return new URL(originalUrl).href;
  } catch {
    return encodeURI(originalUrl);
  }
}

/**
 * The link whose short code or custom alias is `code` (in addressKey's form: the caller's). A short code
 * wins over another link's alias spelled the same, so the answer never depends on row order.
 */
export async function findLinkByCode(db: Database, code: string): Promise<{ id: number; url: string } | undefined> {
  const rows = await db
    .selectFrom('urls')
    .select(['id', 'original_url', 'short_url'])
    .where((eb) => eb.or([eb('short_url', '=', code), eb('custom_url_key', '=', code)]))
    .limit(2)
    .execute();
  const row = rows.find((candidate) => candidate.short_url === code) ?? rows[0];
  return row ? { id: Number(row.id), url: locationFor(row.original_url) } : undefined;
}
