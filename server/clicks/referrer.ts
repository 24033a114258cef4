/** The referring site's domain ('www.' dropped), or null for a direct visit or an unreadable header. */
export function referrerDomain(header: string | undefined): string | null {
  if (!header) return null;
  try {
    const { hostname } = new URL(header);
    if (!hostname) return null;
    return hostname.startsWith('www.') ? hostname.slice(4) : hostname;
  } catch {
    return null;
  }
}
