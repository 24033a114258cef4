import { describe, expect, it } from 'vitest';
import { isShortenable, titleFor } from './current-page';
import { extensionMessages as m } from './extension-messages';
import { normalizeAddress } from './settings';

describe("the options' address", () => {
  it('keeps one form: scheme, host, port and path, no trailing slash', () => {
    expect(normalizeAddress(' https://corto.example.com/ ')).toEqual({ address: 'https://corto.example.com' });
    expect(normalizeAddress('http://127.0.0.1:3000//')).toEqual({ address: 'http://127.0.0.1:3000' });
    expect(normalizeAddress('https://example.com/corto/?a=1#b')).toEqual({ address: 'https://example.com/corto' });
  });

  it('takes an address typed without a scheme as https', () => {
    expect(normalizeAddress('corto.example.com')).toEqual({ address: 'https://corto.example.com' });
  });

  it('refuses an empty address and anything but http and https', () => {
    expect(normalizeAddress('  ')).toEqual({ problem: m.addressRequired });
    expect(normalizeAddress('ftp://corto.example.com')).toEqual({ problem: m.addressInvalid });
    expect(normalizeAddress('https://')).toEqual({ problem: m.addressInvalid });
  });
});

describe('which pages can be shortened', () => {
  it('takes web pages only', () => {
    expect(isShortenable('https://example.com/receta')).toBe(true);
    expect(isShortenable('http://localhost:8080/')).toBe(true);
    for (const url of ['chrome://settings/', 'edge://extensions/', 'about:blank', 'file:///home/ana/notas.txt', 'data:text/html,hola', 'view-source:https://example.com/', 'chrome-extension://abc/popup.html', '', undefined]) {
      expect(isShortenable(url), String(url)).toBe(false);
    }
  });

  it("titles the link with the page's title, cleaned, or its host", () => {
    expect(titleFor('https://example.com/a', '  Receta\tde croquetas ')).toBe('Receta de croquetas');
    expect(titleFor('https://example.com/a', 'Precio \u202Eevil')).toBe('Precio evil');
    expect(titleFor('https://example.com/a', '')).toBe('example.com');
    expect(titleFor('https://example.com/a', 'x'.repeat(500))).toHaveLength(200);
  });
});
