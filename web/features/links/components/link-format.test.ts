import { describe, expect, it } from 'vitest';
import { qrFileName } from './download-qr-button';
import { displayAddress } from './link-format';

describe('qrFileName', () => {
  it("names the QR after the title, or 'link' when nothing usable is left", () => {
    expect(qrFileName('Artículo largo')).toBe('Artículo largo.png');
    expect(qrFileName('a/b:c*d?')).toBe('a b c d.png');
    expect(qrFileName('  ')).toBe('link.png');
    expect(qrFileName('///')).toBe('link.png');
    expect(qrFileName('tab\there')).toBe('tabhere.png');
  });
});

describe('displayAddress', () => {
  it('drops the scheme and decodes the path for reading', () => {
    expect(displayAddress('https://example.com/%C3%A1rbol%20grande')).toBe('example.com/árbol grande');
    expect(displayAddress('http://127.0.0.1:4173/abc123')).toBe('127.0.0.1:4173/abc123');
    // Not valid percent-encoding: shown as it is rather than failing.
    expect(displayAddress('https://example.com/100%')).toBe('example.com/100%');
  });
});
