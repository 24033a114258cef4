import { buckets } from '@common/constants';
import type { Link, LinkStatus } from '@common/links/link-schemas';
import type { RedirectType } from '@common/rules/rule-schemas';
import type { AppContext } from '../app-context';
import type { UrlRow } from '../db/schema';
import { previewImageUrl } from '../previews/preview-image';
import { isBlockedUrl } from './destination-policy';

type Addresses = {
  config: Pick<AppContext['config'], 'publicBaseUrl'>;
  storage: AppContext['storage'];
  /** The operator's blocked domains: a link leading into one is disabled, as its visitors see. */
  blockedDomains?: Pick<AppContext['blockedDomains'], 'domains'> | undefined;
};

const noDomains: ReadonlySet<string> = new Set();

/**
 * The public short address of a link: the alias when there is one, else the short code. In its
 * readable form ('http://host/Ñoquis'), as people type and share it; the QR carries qrTextOf it.
 * On a custom domain (its hostname in `domain`) always https: Caddy gets each verified domain its
 * certificate on demand.
 */
export function shortLinkOf(publicBaseUrl: string, link: { shortCode: string; customUrl: string | null; domain: string | null }): string {
  const base = link.domain === null ? publicBaseUrl : `https://${link.domain}`;
  return `${base}/${link.customUrl ?? link.shortCode}`;
}

/** A link's state now; the visitor's answer follows the same order (paused first, then expired). */
export function linkStatusOf(
  row: Pick<UrlRow, 'paused' | 'expires_at' | 'max_clicks' | 'limit_used'> & Partial<Pick<UrlRow, 'disabled_at'>>,
  now = Date.now(),
): LinkStatus {
  if (row.disabled_at !== null && row.disabled_at !== undefined) return 'disabled';
  if (row.paused) return 'paused';
  if (row.expires_at !== null && Number(row.expires_at) <= now) return 'expired';
  if (row.max_clicks !== null && row.limit_used >= row.max_clicks) return 'expired';
  return 'active';
}

/** What a link of the API says beyond its row: previousAddresses from formerAliasesOf, tags from tagsOf, createdBy from creatorsOf. */
export interface LinkExtras {
  /** The slug of the workspace it belongs to. */
  workspace: string;
  createdBy: { id: number; name: string };
  /** The hostname of its custom domain (domainHostnamesOf), null on the instance's own host. */
  domain: string | null;
  previousAddresses?: string[] | undefined;
  tags?: string[] | undefined;
}

/** The stored status (PostgreSQL's smallint may come as text); anything else reads as the default 302. */
export function redirectTypeOf(value: number | string | null | undefined): RedirectType {
  const status = Number(value);
  return status === 301 || status === 307 || status === 308 ? status : 302;
}

/** The one place a urls row becomes a link of the API. */
export function rowToLink(row: UrlRow, { config, storage, blockedDomains }: Addresses, extras: LinkExtras): Link {
  const { previousAddresses = [], tags = [] } = extras;
  // The visitor's order: the operator's own decision first, then the blocked domain.
  const disabledCause =
    row.disabled_at !== null ? ('operator' as const) : isBlockedUrl(row.original_url, blockedDomains?.domains ?? noDomains) ? ('blockedDomain' as const) : null;
  return {
    id: row.id,
    title: row.title,
    originalUrl: row.original_url,
    shortCode: row.short_url,
    customUrl: row.custom_url,
    shortLink: shortLinkOf(config.publicBaseUrl, { shortCode: row.short_url, customUrl: row.custom_url, domain: extras.domain }),
    domain: extras.domain,
    // The file keeps its key when an edit remakes it: the edit's time tells caches it is new.
    qr: storage.publicUrl(buckets.qrs, row.qr) + (row.updated_at && row.updated_at !== row.created_at ? `?v=${row.updated_at}` : ''),
    createdAt: new Date(row.created_at).toISOString(),
    clicks: row.click_count,
    updatedAt: new Date(row.updated_at ?? row.created_at).toISOString(),
    status: disabledCause ? 'disabled' : linkStatusOf(row),
    paused: Boolean(row.paused),
    expiresAt: row.expires_at === null ? null : new Date(Number(row.expires_at)).toISOString(),
    maxClicks: row.max_clicks,
    limitClicks: row.limit_used,
    hasPassword: row.password_hash !== null,
    previousAddresses,
    scans: Number(row.scan_count),
    forwardQuery: Boolean(row.forward_query),
    tags,
    // Parsed only when there is something: a plain link's list entry costs nothing more.
    rules: row.rules ? (JSON.parse(row.rules) as Link['rules']) : [],
    variants: row.variants ? (JSON.parse(row.variants) as Link['variants']) : null,
    redirectType: redirectTypeOf(row.redirect_type),
    disabledCause,
    disabledReason: row.disabled_at !== null ? row.disabled_reason : null,
    preview:
      row.preview_title === null && row.preview_description === null && row.preview_image_key === null
        ? null
        : {
            title: row.preview_title,
            description: row.preview_description,
            image: row.preview_image_key === null ? null : previewImageUrl(storage, config.publicBaseUrl, row.preview_image_key),
          },
    workspace: extras.workspace,
    createdBy: { id: extras.createdBy.id, name: extras.createdBy.name },
  };
}
