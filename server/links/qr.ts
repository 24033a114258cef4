import QRCode from 'qrcode';
import sharp from 'sharp';

const QR_SIDE = 400; // pixels
const QR_MARGIN = 2; // modules of white around the code

/** Object name of a link's QR in bucket 'qrs' (spec: qr-{shortcode}). */
export function qrKey(shortCode: string): string {
  return `qr-${shortCode}.png`;
}

/**
 * The QR PNG for a short address. It encodes the short address, not the long URL, so every scan
 * goes through the redirect and is counted (DESIGN.md rule 3).
 */
export function qrPng(shortLink: string): Promise<Buffer> {
  // qrcode's own PNG encoder runs on the event loop (about 90 ms a code on a busy 2-core machine),
  // stalling every redirect meanwhile: a burst of creations pushed others' redirect p99 to a second.
  // Only the module matrix is made here (under a millisecond); sharp scales and encodes the PNG on
  // libuv's thread pool.
  const { modules } = QRCode.create(shortLink, { errorCorrectionLevel: 'M' });
  const cells = modules.size + 2 * QR_MARGIN;
  const pixels = Buffer.alloc(cells * cells, 255);
  for (let row = 0; row < modules.size; row += 1) {
    for (let col = 0; col < modules.size; col += 1) {
      if (modules.get(row, col)) pixels[(row + QR_MARGIN) * cells + col + QR_MARGIN] = 0;
    }
  }
  return sharp(pixels, { raw: { width: cells, height: cells, channels: 1 } })
    .resize(QR_SIDE, QR_SIDE, { kernel: 'nearest' })
    .png()
    .toBuffer();
}
