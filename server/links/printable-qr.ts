import type { QrOptions } from '@common/links/qr-options';
import { loadSharp } from '../images/load-sharp';
import { modulesOf } from './qr';

// The QR of GET /api/links/:id/qr, made to order for print: PNG (sharp) or SVG.

const rgb = (hex: string) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)) as [number, number, number];

/**
 * A QR PNG of exactly `size` pixels a side. qrcode's own PNG encoder runs on the event loop (about
 * 90 ms a code on a busy 2-core machine), stalling every redirect meanwhile; here only the module
 * matrix is made on it (one pixel a module), and sharp scales, pads and encodes on libuv's thread
 * pool. Every module gets the same whole number of pixels, so a printed code has sharp, even
 * modules; what does not divide evenly goes to the quiet zone.
 */
export async function qrPngOf(text: string, { size, margin, color, background, ecc }: Omit<QrOptions, 'format'>): Promise<Buffer> {
  const sharp = await loadSharp();
  const modules = modulesOf(text, ecc);
  const cells = modules.size + 2 * margin;
  const [dark, light] = [rgb(color), rgb(background)];
  const pixels = Buffer.alloc(cells * cells * 3);
  for (let at = 0; at < cells * cells; at += 1) pixels.set(light, at * 3);
  for (let row = 0; row < modules.size; row += 1) {
    for (let col = 0; col < modules.size; col += 1) {
      if (modules.get(row, col)) pixels.set(dark, ((row + margin) * cells + col + margin) * 3);
    }
  }
  const image = sharp(pixels, { raw: { width: cells, height: cells, channels: 3 } });
  const scale = Math.floor(size / cells);
  if (scale < 1) return image.resize(size, size, { kernel: 'nearest' }).png().toBuffer();
  const spare = size - scale * cells;
  const before = Math.floor(spare / 2);
  return image
    .resize(scale * cells, scale * cells, { kernel: 'nearest' })
    .extend({ top: before, left: before, bottom: spare - before, right: spare - before, background: { r: light[0], g: light[1], b: light[2] } })
    .png()
    .toBuffer();
}

/** The same code as SVG: one path of dark modules on a background square, crisp at any size. */
export function qrSvgOf(text: string, { size, margin, color, background, ecc }: Omit<QrOptions, 'format'>): string {
  const modules = modulesOf(text, ecc);
  const cells = modules.size + 2 * margin;
  let path = '';
  for (let row = 0; row < modules.size; row += 1) {
    // Runs of dark modules in a row become one rectangle each.
    for (let col = 0; col < modules.size; ) {
      if (!modules.get(row, col)) {
        col += 1;
        continue;
      }
      let end = col;
      while (end < modules.size && modules.get(row, end)) end += 1;
      path += `M${col + margin} ${row + margin}h${end - col}v1h${col - end}z`;
      col = end;
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${cells} ${cells}" shape-rendering="crispEdges">` +
    `<rect width="${cells}" height="${cells}" fill="${background}"/><path fill="${color}" d="${path}"/></svg>\n`
  );
}
