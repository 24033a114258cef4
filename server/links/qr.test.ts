import { describe, expect, it } from 'vitest';
import { qrKey, qrPng } from './qr';
import { decodeQr } from './links.test-support';

describe('link QR codes', () => {
  it('makes a PNG that a QR decoder reads back as the short address', async () => {
    const png = await qrPng('https://corto.example/abc123');
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(await decodeQr(png)).toBe('https://corto.example/abc123');
  });

  it('names the object after the short code', () => {
    expect(qrKey('abc123')).toBe('qr-abc123.png');
  });
});
