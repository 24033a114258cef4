import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { qrPngOf } from './printable-qr';
import { qrKey, qrPng } from './qr';
import { decodeQr } from './links.test-support';

describe('link QR codes', () => {
  it('makes a PNG that a QR decoder reads back as the short address', async () => {
    const png = qrPng('https://corto.example/abc123');
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(await decodeQr(png)).toBe('https://corto.example/abc123');
  });

  it('stores a 1-bit PNG with the very pixels of the printable 400-pixel code', async () => {
    const greys = (png: Buffer) => sharp(png).removeAlpha().toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
    for (const text of ['https://corto.example/abc123?qr=1', `https://corto.example/${'ñ'.repeat(120)}?qr=1`]) {
      const stored = await greys(qrPng(text));
      const printable = await greys(await qrPngOf(text, { size: 400, margin: 2, color: '#000000', background: '#ffffff', ecc: 'M' }));
      expect(stored.info).toMatchObject({ width: 400, height: 400, channels: 1 });
      expect((await sharp(qrPng(text)).metadata()).bitsPerSample).toBe(1);
      expect(stored.data.equals(printable.data)).toBe(true);
    }
  });

  it('names the object after the short code', () => {
    expect(qrKey('abc123')).toBe('qr-abc123.png');
  });
});
