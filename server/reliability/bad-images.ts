import { makeImage } from '../test/test-users';

// Files that claim to be pictures and are not, or not in a way the server should accept.

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A well-formed PNG header declaring width × height pixels (a decompression bomb's calling card). */
export function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter, no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  // One tiny compressed row: far too little data for the declared canvas.
  const idat = pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]));
  return Buffer.concat([signature, pngChunk('IHDR', ihdr), idat, pngChunk('IEND', Buffer.alloc(0))]);
}

export async function badImages() {
  const png = await makeImage('png', 256, 256);
  const jpeg = await makeImage('jpeg', 256, 256);
  return {
    textAsPng: Buffer.from('esto no es una imagen, solo texto con extensión .png\n'.repeat(20)),
    htmlAsPng: Buffer.from('<!doctype html><script>alert(1)</script>'),
    svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>'),
    truncatedPng: png.subarray(0, Math.floor(png.length / 3)),
    truncatedJpeg: jpeg.subarray(0, 200),
    headerOnlyPng: png.subarray(0, 33),
    hugePng: pngDeclaring(100_000, 100_000),
    widePng: pngDeclaring(6001, 10),
    maxIntPng: pngDeclaring(0x7fffffff, 0x7fffffff),
    zeroPng: pngDeclaring(0, 0),
    /** Over the 5 MB limit: a valid PNG signature followed by padding. */
    oversized: Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1024, 1)]),
    empty: Buffer.alloc(0),
  };
}
