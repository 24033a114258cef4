import { describe, expect, it } from 'vitest';
import { decodeImport, detectedText, detectSeparator, quoteLeftOpen } from '@common/links/import-text';

describe('reading an import file as text', () => {
  it('reads UTF-8 (its byte order mark dropped), UTF-16 by its mark, and anything else as Windows-1252', () => {
    expect(decodeImport(new TextEncoder().encode('\uFEFFtitle,Ñoquis'))).toEqual({ text: 'title,Ñoquis', encoding: 'utf-8' });
    const utf16 = Uint8Array.from([0xff, 0xfe, ...[...'Año'].flatMap((char) => [char.charCodeAt(0), 0])]);
    expect(decodeImport(utf16)).toEqual({ text: 'Año', encoding: 'utf-16le' });
    // 'Año €' as Excel saves it on a Spanish Windows: ñ is 0xF1 and € 0x80, neither UTF-8.
    expect(decodeImport(Uint8Array.from([0x41, 0xf1, 0x6f, 0x20, 0x80]))).toEqual({ text: 'Año €', encoding: 'windows-1252' });
    expect(decodeImport(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0]))).toBeUndefined();
  });

  it('takes the separator that splits the header most, quoted cells left out', () => {
    expect(detectSeparator('title,longUrl,customUrl,tags\r\nx;y')).toBe(',');
    expect(detectSeparator('\r\ntitle;longUrl;customUrl;tags\r\n')).toBe(';');
    expect(detectSeparator('"a,b,c";longUrl\n')).toBe(';');
    expect(detectSeparator('title\tlongUrl\n')).toBe('\t');
    expect(detectSeparator('longUrl\n')).toBe(',');
    expect(detectedText(';', 'windows-1252')).toBe('Separador: punto y coma · Codificación: Windows-1252');
  });

  it('finds a quote opened and never closed, the one way a row runs into the next line', () => {
    expect(quoteLeftOpen('Dos,"https://example.com/2,', ',')).toBe(true);
    expect(quoteLeftOpen('Uno,  "abierta', ',')).toBe(true);
    expect(quoteLeftOpen('"Precios, ""2026""",https://example.com', ',')).toBe(false);
    expect(quoteLeftOpen('De 12" de ancho,https://example.com,', ',')).toBe(false);
    expect(quoteLeftOpen('"a;b";"c', ';')).toBe(true);
    expect(quoteLeftOpen('"a,b";c', ';')).toBe(false);
    expect(quoteLeftOpen('x,""', ',')).toBe(false);
  });
});
