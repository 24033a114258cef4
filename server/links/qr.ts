import QRCode from 'qrcode';

/** Object name of a link's QR in bucket 'qrs' (spec: qr-{shortcode}). */
export function qrKey(shortCode: string): string {
  return `qr-${shortCode}.png`;
}

/**
 * The QR PNG for a short address. It encodes the short address, not the long URL, so every scan
 * goes through the redirect and is counted (DESIGN.md rule 3).
 */
export function qrPng(shortLink: string): Promise<Buffer> {
  return QRCode.toBuffer(shortLink, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 400 });
}
