import { crc32, deflateSync } from 'node:zlib';

// A black-and-white image as a PNG of 1 bit a pixel (greyscale, colour type 0). The stored QR is
// exactly that: sharp took about 3 ms of CPU a code for it (8-bit RGB, ~6 kB), this takes 0.2 ms
// (~0.5 kB), which is what lets an import draw 10,000 codes in seconds.

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * Rows of a bilevel image, all white, each led by PNG's filter byte (0, none) and then 8 pixels a
 * byte, the first in the high bit: darken runs of pixels, copy rows, then encode.
 */
export class BilevelImage {
  readonly stride: number;
  readonly rows: Buffer;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.stride = 1 + Math.ceil(width / 8);
    this.rows = Buffer.alloc(this.stride * height, 0xff);
    for (let y = 0; y < height; y += 1) this.rows[y * this.stride] = 0;
  }

  /** Darkens the pixels from x to x + length - 1 of row y. */
  darken(y: number, x: number, length: number): void {
    const start = y * this.stride + 1;
    for (let at = x; at < x + length; at += 1) this.rows[start + (at >> 3)]! &= ~(0x80 >> (at & 7));
  }

  /** Makes rows y + 1 ... y + count copies of row y. */
  repeatRow(y: number, count: number): void {
    const row = this.rows.subarray(y * this.stride, (y + 1) * this.stride);
    for (let k = 1; k <= count; k += 1) row.copy(this.rows, (y + k) * this.stride);
  }

  /** The PNG file: 1 = white, 0 = black. Identical rows cost deflate next to nothing. */
  png(): Buffer {
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header[8] = 1; // bit depth
    header[9] = 0; // greyscale; compression, filter and interlace stay 0
    return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(this.rows)), chunk('IEND', Buffer.alloc(0))]);
  }
}
