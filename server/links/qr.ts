import type { QrEcc } from '@common/links/qr-options';
import QRCode from 'qrcode';
import { BilevelImage } from './bilevel-png';

// The QR stored with each link (bucket 'qrs'), and the module matrix every QR is drawn from. No
// sharp here: the import's QR thread loads this file (printable-qr.ts has the made-to-order ones).

const STORED_SIDE = 400; // pixels of the stored PNG (bucket 'qrs')
const STORED_MARGIN = 2; // modules of white around it

/** Object name of a link's QR in bucket 'qrs' (spec: qr-{shortcode}). */
export function qrKey(shortCode: string): string {
  return `qr-${shortCode}.png`;
}

/** The code's modules: making them costs under a millisecond. */
export function modulesOf(text: string, ecc: QrEcc) {
  return QRCode.create(text, { errorCorrectionLevel: ecc }).modules;
}

/**
 * The stored QR PNG for a link (bucket 'qrs'): 400 pixels a side, black on white, each module the
 * same whole number of pixels and the rest in the quiet zone, as printable-qr.ts's qrPngOf would draw it, but
 * encoded as a 1-bit PNG (about 0.7 ms on the calling thread, the code's modules included). It
 * encodes the short address (qrAddressOf: with ?qr=1), not the long URL, so every scan goes through
 * the redirect and is counted as one (DESIGN.md rule 3).
 */
export function qrPng(qrText: string): Buffer {
  const modules = modulesOf(qrText, 'M');
  const cells = modules.size + 2 * STORED_MARGIN;
  const scale = Math.floor(STORED_SIDE / cells); // 2 or more: the largest code has 177 modules a side
  const offset = Math.floor((STORED_SIDE - scale * cells) / 2) + STORED_MARGIN * scale;
  const image = new BilevelImage(STORED_SIDE, STORED_SIDE);
  for (let row = 0; row < modules.size; row += 1) {
    const y = offset + row * scale;
    for (let col = 0; col < modules.size; ) {
      if (!modules.get(row, col)) {
        col += 1;
        continue;
      }
      let end = col;
      while (end < modules.size && modules.get(row, end)) end += 1;
      image.darken(y, offset + col * scale, (end - col) * scale);
      col = end;
    }
    image.repeatRow(y, scale - 1);
  }
  return image.png();
}
