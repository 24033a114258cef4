import { buckets } from '@common/constants';
import type { Link } from '@common/links/link-schemas';
import type { AppContext } from '../app-context';
import type { UrlRow } from '../db/schema';

type Addresses = { config: Pick<AppContext['config'], 'publicBaseUrl'>; storage: AppContext['storage'] };

/**
 * The public short address of a link: the alias when there is one, else the short code. In its
 * readable form ('http://host/Ñoquis'), as people type and share it; the QR carries qrTextOf it.
 */
export function shortLinkOf(publicBaseUrl: string, link: { shortCode: string; customUrl: string | null }): string {
  return `${publicBaseUrl}/${link.customUrl ?? link.shortCode}`;
}

/** The one place a urls row becomes a link of the API. */
export function rowToLink(row: UrlRow, { config, storage }: Addresses): Link {
  return {
    id: row.id,
    title: row.title,
    originalUrl: row.original_url,
    shortCode: row.short_url,
    customUrl: row.custom_url,
    shortLink: shortLinkOf(config.publicBaseUrl, { shortCode: row.short_url, customUrl: row.custom_url }),
    qr: storage.publicUrl(buckets.qrs, row.qr),
    createdAt: new Date(row.created_at).toISOString(),
    clicks: row.click_count,
  };
}
