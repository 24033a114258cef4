// How a short address is compared, and what a QR carries. Shared by the server (lookups, the QR
// it stores) and the create form (its QR preview).

/**
 * The form in which addresses are compared: lowercase, NFC. 'Ñoquis', 'ñoquis' and the same word
 * typed with a combining tilde (NFD, as some keyboards and file systems produce it) are one
 * address. Short codes are lowercase ASCII already, so for them this is just toLowerCase().
 */
export function addressKey(address: string): string {
  return address.toLowerCase().normalize('NFC');
}

/**
 * What a QR encodes for a short address: the URL standard's ASCII form ('/%C3%91oquis'). A QR
 * code's byte mode has no agreed character set (ISO 18004 says Latin-1, many readers guess
 * UTF-8), so a reader could turn 'Ñ' into 'Ã‘' and a printed code would lead nowhere; ASCII reads
 * the same everywhere, and the browser shows the address readable again once it opens it.
 */
export function qrTextOf(shortLink: string): string {
  try {
    return new URL(shortLink).href;
  } catch {
    return shortLink;
  }
}
