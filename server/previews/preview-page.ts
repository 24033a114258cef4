import { staticSecurityHeaders, strictTransportSecurity } from '../http/security-headers';

/** A link's card as the redirect keeps it (link-cache.ts CachedLink.preview). */
export interface PreviewCard {
  /** The preview's title, or the link's own when only an image was given. */
  title: string;
  description: string | null;
  /** The image's absolute address, or null. */
  image: string | null;
}

// Everything a text node or a quoted attribute could mistake for markup.
const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => escapes[character]!);

// The page runs nothing and loads nothing: the chat app reads its tags, nobody reads it as a page.
const PREVIEW_CSP = "default-src 'none'; script-src 'none'; style-src 'none'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The preview page's headers: the site's policy with a CSP of its own, kept by nobody (an edit shows at once). */
export function previewHeaders(https: boolean): string[] {
  const headers = ['content-type', 'text/html; charset=utf-8', 'cache-control', 'no-store', 'x-robots-tag', 'noindex'];
  for (const [name, value] of Object.entries(staticSecurityHeaders)) headers.push(name, name === 'content-security-policy' ? PREVIEW_CSP : value);
  if (https) headers.push('strict-transport-security', strictTransportSecurity);
  return headers;
}

/**
 * The 200 page a preview bot gets for a link with a preview: Open Graph and Twitter-card tags, a
 * <title>, and a plain link to the destination for anyone who lands here; no script, every value
 * escaped. `address` is the short link as asked (og:url), `destination` where people are sent.
 */
export function previewPage(card: PreviewCard, address: string, destination: string): string {
  const meta = (attribute: 'property' | 'name', name: string, value: string) => `<meta ${attribute}="${name}" content="${escapeHtml(value)}">`;
  const tags = [
    meta('property', 'og:type', 'website'),
    meta('property', 'og:title', card.title),
    meta('property', 'og:url', address),
    meta('name', 'twitter:card', card.image === null ? 'summary' : 'summary_large_image'),
    meta('name', 'twitter:title', card.title),
  ];
  if (card.description !== null) {
    tags.push(meta('property', 'og:description', card.description), meta('name', 'twitter:description', card.description), meta('name', 'description', card.description));
  }
  if (card.image !== null) {
    tags.push(
      meta('property', 'og:image', card.image),
      meta('property', 'og:image:width', '1200'),
      meta('property', 'og:image:height', '630'),
      meta('name', 'twitter:image', card.image),
    );
  }
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<title>${escapeHtml(card.title)}</title>
${tags.join('\n')}
</head>
<body>
<p><a href="${escapeHtml(destination)}">${escapeHtml(card.title)}</a></p>
</body>
</html>
`;
}
