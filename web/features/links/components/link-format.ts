/** An address as people read it: without the scheme, and with its path decoded when that is possible. */
export function displayAddress(url: string): string {
  const bare = url.replace(/^https?:\/\//, '');
  try {
    return decodeURI(bare);
  } catch {
    return bare;
  }
}

/** The creation date and time in the browser's own format, as the spec asks. */
export function formatCreatedAt(iso: string): string {
  return new Date(iso).toLocaleString();
}
