import { describe, expect, it } from 'vitest';
import { qrAddressOf, qrContentDisposition, qrFileName, qrQuerySchema } from '@common/links/qr-options';
import { changesOfQuery, mergeQuery } from '@common/links/query-merge';
import { emptyUtm, utmOf, withUtm } from '@common/links/utm';

describe('mergeQuery', () => {
  it('appends new parameters before the fragment and keeps the other pairs byte for byte', () => {
    const url = 'https://example.com/p?flag&a=b+c&odd=%7e#section-2';
    expect(mergeQuery(url, changesOfQuery('x=1&y=%C3%B1'))).toBe('https://example.com/p?flag&a=b+c&odd=%7e&x=1&y=%C3%B1#section-2');
  });

  it('replaces a parameter where it stood, drops its repeats, and removes one given no pairs', () => {
    expect(mergeQuery('https://e.com/?a=1&b=2&a=3&c', [{ key: 'a', pairs: ['a=9'] }, { key: 'c', pairs: [] }])).toBe('https://e.com/?a=9&b=2');
    expect(mergeQuery('https://e.com/?c=1', [{ key: 'c', pairs: [] }])).toBe('https://e.com/');
  });

  it('compares names decoded, and leaves a URL with no changes exactly as it was', () => {
    expect(mergeQuery('https://e.com/?utm%5Fsource=a', changesOfQuery('utm_source=b'))).toBe('https://e.com/?utm_source=b');
    expect(mergeQuery('https://e.com/?#x', [])).toBe('https://e.com/?#x');
    expect(mergeQuery('https://e.com/path#frag?not=query', changesOfQuery('q=1'))).toBe('https://e.com/path?q=1#frag?not=query');
  });
});

describe('the UTM builder', () => {
  const values = { ...emptyUtm, source: 'boletín', medium: 'email', campaign: 'rebajas de verano' };

  it('merges the campaign fields into the destination without breaking its query or fragment', () => {
    expect(withUtm('https://tienda.example/zapatos?talla=42&flag#ofertas', values)).toBe(
      'https://tienda.example/zapatos?talla=42&flag&utm_source=bolet%C3%ADn&utm_medium=email&utm_campaign=rebajas%20de%20verano#ofertas',
    );
  });

  it('reads back the values a destination carries; an emptied field removes its parameter, an untouched one leaves it as written', () => {
    const built = withUtm('https://e.com/?a=1', values);
    expect(utmOf(built)).toEqual({ ...values });
    expect(withUtm(built, { ...values, campaign: '  ' }, utmOf(built))).toBe('https://e.com/?a=1&utm_source=bolet%C3%ADn&utm_medium=email');
    expect(withUtm('https://e.com/?utm_source=a+b', utmOf('https://e.com/?utm_source=a+b'), utmOf('https://e.com/?utm_source=a+b'))).toBe('https://e.com/?utm_source=a+b');
    expect(withUtm('https://e.com/?utm_source=viejo', { ...emptyUtm, medium: 'qr' })).toBe('https://e.com/?utm_source=viejo&utm_medium=qr');
    expect(utmOf('https://e.com/?utm_term=zapatos+rojos&utm_content')).toEqual({ ...emptyUtm, term: 'zapatos rojos' });
  });
});

describe('QR options', () => {
  it('takes the defaults, normalises colours and refuses bad values with Spanish messages', () => {
    expect(qrQuerySchema.parse({})).toEqual({ format: 'png', size: 512, margin: 4, color: '#000000', background: '#ffffff', ecc: 'M' });
    expect(qrQuerySchema.parse({ color: '123', background: '#FfFfFf', size: '2048', ecc: 'H', format: 'svg' })).toMatchObject({ color: '#112233', background: '#ffffff', size: 2048 });
    const refused = qrQuerySchema.safeParse({ size: '127', margin: '-1', color: 'rojo', ecc: 'X', format: 'gif' });
    expect(refused.success).toBe(false);
    const messages = refused.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        'size: El tamaño debe ser un número entero entre 128 y 2048 píxeles',
        'margin: El margen debe ser un número entero entre 0 y 16 módulos',
        'color: El color debe ser un color hexadecimal, como #000000',
        'ecc: La corrección de errores debe ser L, M, Q o H',
        'format: El formato debe ser png o svg',
      ]),
    );
    expect(qrQuerySchema.safeParse({ color: '#777777', background: '#888888' }).error?.issues[0]?.message).toBe(
      'El color y el fondo se parecen demasiado: el código no se podría leer',
    );
  });

  it('puts ?qr=1 on the ASCII form of the short address', () => {
    expect(qrAddressOf('http://corto.example/Ñoquis')).toBe('http://corto.example/%C3%91oquis?qr=1');
  });

  it('names the download after the title, safely', () => {
    expect(qrFileName('Campaña "verano"/2026', 'svg')).toBe('Campaña  verano 2026.svg');
    expect(qrFileName('..', 'png')).toBe('link.png');
    expect(qrContentDisposition('Campaña; 50%', 'png')).toBe(
      `attachment; filename="Campana- 50-.png"; filename*=UTF-8''Campa%C3%B1a%3B%2050%25.png`,
    );
  });
});
