import { describe, expect, it } from 'vitest';
import { qrFileName } from './download-qr-button';
import { decodePunycode } from '../../../lib/punycode';
import { displayAddress, readableUrl } from './link-format';

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

  it('shows a link on a workspace’s own international domain in Unicode', () => {
    expect(displayAddress('https://xn--espaa-rta.es/oferta')).toBe('españa.es/oferta');
  });
});

describe('readableUrl', () => {
  it('shows the path decoded and the international domain in Unicode, scheme and port kept', () => {
    expect(readableUrl('https://es.wikipedia.org/wiki/Canci%C3%B3n_de_cuna')).toBe('https://es.wikipedia.org/wiki/Canción_de_cuna');
    expect(readableUrl(new URL('https://españa.es:8443/mañana?q=año#sección').href)).toBe('https://españa.es:8443/mañana?q=año#sección');
    expect(readableUrl('https://xn--mnchen-3ya.de/')).toBe('https://münchen.de/');
  });

  it("keeps escapes that would change the address's meaning, or hide part of it", () => {
    // An encoded slash and question mark are data, not structure.
    expect(readableUrl('https://example.com/a%2Fb%3Fc')).toBe('https://example.com/a%2Fb%3Fc');
    // A right-to-left override or a zero-width space would make the shown text lie.
    expect(readableUrl('https://example.com/%E2%80%AEtxt.exe')).toBe('https://example.com/%E2%80%AEtxt.exe');
    expect(readableUrl('https://example.com/a%E2%80%8Bb')).toBe('https://example.com/a%E2%80%8Bb');
  });

  it('leaves a host mixing Latin with look-alike Cyrillic letters in its ASCII form', () => {
    const spoof = new URL('https://аpple.com/').hostname; // the first letter is Cyrillic
    expect(spoof.startsWith('xn--')).toBe(true);
    expect(readableUrl(`https://${spoof}/`)).toBe(`https://${spoof}/`);
    // A label wholly in one script is shown decoded.
    expect(readableUrl(new URL('https://пример.рф/').href)).toBe('https://пример.рф/');
  });
});

describe('decodePunycode', () => {
  it("gives back what Node's IDNA decoding (url.domainToUnicode) gives for these hosts", () => {
    const hosts = [
      ['xn--espaa-rta.es', 'españa.es'],
      ['xn--mnchen-3ya.de', 'münchen.de'],
      ['xn--e1afmkfd.xn--p1ai', 'пример.рф'],
      ['xn--r8jz45g.xn--zckzah', '例え.テスト'],
      ['xn--eckwd4c7cu47r2wf.jp', 'ドメイン名例.jp'],
      ['xn--hxargifdar.gr', 'ελληνικά.gr'],
      ['xn--n-ho-gya60h.com', 'nĩ-hǎo.com'],
    ];
    for (const [ascii, unicode] of hosts) {
      const ours = ascii!
        .split('.')
        .map((label) => (label.startsWith('xn--') ? decodePunycode(label.slice(4)) : label))
        .join('.');
      expect(ours).toBe(unicode);
      expect(new URL(`https://${unicode}/`).hostname).toBe(ascii); // and the browser's parser agrees
    }
  });

  it('throws on malformed input rather than inventing text', () => {
    expect(() => decodePunycode('99999999999999')).toThrow();
    expect(() => decodePunycode('abc-!')).toThrow();
  });
});
