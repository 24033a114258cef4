import { describe, expect, it } from 'vitest';
import { linkMessages as m } from '@common/links/link-messages';
import { aliasProblems, createLinkSchema, listLinksQuerySchema } from '@common/links/link-schemas';
import { QR_PREVIEW_PATH } from '@common/reserved-paths';

/** Every message per field, as the form and the API show them. */
function messagesOf(input: unknown): Record<string, string[]> {
  const result = createLinkSchema.safeParse(input);
  const fields: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) (fields[String(issue.path[0])] ??= []).push(issue.message);
  return fields;
}

describe('createLinkSchema', () => {
  it("uses the spec's wording for a missing title and URL", () => {
    expect(messagesOf({ title: '  ', longUrl: '' })).toEqual({ title: [m.titleRequired], longUrl: [m.longUrlRequired] });
    expect(m.titleRequired).toBe('El título es obligatorio');
    expect(m.longUrlRequired).toBe('La URL es obligatoria');
    expect(messagesOf({})).toEqual({ title: [m.titleRequired], longUrl: [m.longUrlRequired] });
  });

  it("says 'La URL debe ser válida' for text that is not a URL", () => {
    expect(messagesOf({ title: 't', longUrl: 'no es una url' })).toEqual({ longUrl: ['La URL debe ser válida'] });
    expect(messagesOf({ title: 't', longUrl: 'example.com' })).toEqual({ longUrl: ['La URL debe ser válida'] });
  });

  it('accepts only http and https, of at most 2,048 characters', () => {
    for (const longUrl of ['ftp://example.com/f', 'javascript:alert(1)', 'mailto:a@b.es']) {
      expect(messagesOf({ title: 't', longUrl })).toEqual({ longUrl: [m.longUrlProtocol] });
    }
    const base = 'https://example.com/';
    expect(messagesOf({ title: 't', longUrl: base + 'a'.repeat(2048 - base.length) })).toEqual({});
    expect(messagesOf({ title: 't', longUrl: base + 'a'.repeat(2049 - base.length) })).toEqual({ longUrl: [m.longUrlTooLong] });
  });

  it('trims, stores the URL in its standard form, and reads a blank alias as none', () => {
    const parsed = createLinkSchema.parse({ title: ' Hola ', longUrl: ' https://Example.com/a b ', customUrl: '   ' });
    expect(parsed).toEqual({ title: 'Hola', longUrl: 'https://example.com/a%20b', customUrl: null, tags: [], domain: null });
    expect(createLinkSchema.parse({ title: 't', longUrl: 'http://x.es' }).customUrl).toBeNull();
    expect(createLinkSchema.parse({ title: 't', longUrl: 'http://x.es', customUrl: ' Mi_Alias-1 ' }).customUrl).toBe('Mi_Alias-1');
  });

  it('gives every failing alias rule its own message, all at once', () => {
    expect(messagesOf({ title: 't', longUrl: 'http://x.es', customUrl: 'a!' })).toEqual({
      customUrl: [m.aliasLength, m.aliasCharacters],
    });
    expect(messagesOf({ title: 't', longUrl: 'http://x.es', customUrl: 'x'.repeat(51) })).toEqual({ customUrl: [m.aliasLength] });
    expect(messagesOf({ title: 't', longUrl: 'http://x.es', customUrl: 'mi alias' })).toEqual({ customUrl: [m.aliasCharacters] });
    expect(messagesOf({ title: 't', longUrl: 'http://x.es', customUrl: 'ñandú' })).toEqual({});
    expect(messagesOf({ title: 't', longUrl: 'http://x.es', customUrl: 'ñandú🐦' })).toEqual({ customUrl: [m.aliasCharacters] });
    for (const customUrl of ['dashboard', 'API', 'Link', 'storage']) {
      expect(messagesOf({ title: 't', longUrl: 'http://x.es', customUrl })).toEqual({ customUrl: [m.aliasReserved] });
    }
    expect(messagesOf({ title: 't', longUrl: 'http://x.es', customUrl: 'x'.repeat(50) })).toEqual({});
  });

  it('refuses bidirectional controls in a title (U+202E shows "exe.gnp" as "png.exe") and in an alias', () => {
    const bidi = ['\u202e', '\u202a', '\u202b', '\u202c', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
    for (const mark of bidi) {
      expect(messagesOf({ title: `factura${mark}gnp.exe`, longUrl: 'http://x.es' })).toEqual({ title: [m.titleBidi] });
      expect(messagesOf({ title: 't', longUrl: 'http://x.es', customUrl: `abc${mark}def` })).toEqual({ customUrl: [m.aliasCharacters] });
    }
    // Right-to-left text itself is welcome.
    expect(messagesOf({ title: 'שלום עולם مرحبا', longUrl: 'http://x.es' })).toEqual({});
  });
});

describe('listLinksQuerySchema', () => {
  it('defaults to a page of 50 and refuses limits and cursors it cannot use', () => {
    expect(listLinksQuerySchema.parse({})).toEqual({ limit: 50, sort: 'created', order: 'desc' });
    expect(listLinksQuerySchema.parse({ limit: '10', q: ' hola ', cursor: '1700000000000.42' })).toEqual({
      limit: 10,
      q: 'hola',
      cursor: '1700000000000.42',
      sort: 'created',
      order: 'desc',
    });
    for (const limit of ['0', '201', 'abc', '1.5']) expect(listLinksQuerySchema.safeParse({ limit }).success).toBe(false);
    for (const cursor of ['x', '1.', '1.2.3', '1.-2']) expect(listLinksQuerySchema.safeParse({ cursor }).success).toBe(false);
  });
});

describe('QR_PREVIEW_PATH', () => {
  it("can be neither an alias nor a drawn short code, so nobody can claim the create form's preview", () => {
    expect(aliasProblems(QR_PREVIEW_PATH)).toContain(m.aliasCharacters);
    expect(QR_PREVIEW_PATH).not.toMatch(/^[0-9a-z]{6}$/);
  });
});
