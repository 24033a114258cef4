import { z } from 'zod';
import '../zod-setup';
import { qrTextOf } from './short-address';

// GET /api/links/:id/qr: the printable QR's options, their Spanish messages, and the address a QR
// carries. One schema for the route and the detail page's QR dialog.

export const QR_MIN_SIZE = 128;
export const QR_MAX_SIZE = 2048;
export const QR_DEFAULT_SIZE = 512;
/** Quiet zone, in modules: the standard asks for 4; 0 is for codes placed on a plain background. */
export const QR_MAX_MARGIN = 16;
export const QR_DEFAULT_MARGIN = 4;
export const qrFormats = ['png', 'svg'] as const;
export const qrEccLevels = ['L', 'M', 'Q', 'H'] as const;
export type QrFormat = (typeof qrFormats)[number];
export type QrEcc = (typeof qrEccLevels)[number];
/** The query parameter that marks a visit as a QR scan. */
export const QR_SCAN_PARAMETER = 'qr';
/** Below this contrast ratio (WCAG's formula) between the two colours, readers fail: refused. */
export const QR_MIN_CONTRAST = 2.5;

export const qrMessages = {
  format: 'El formato debe ser png o svg',
  size: `El tamaño debe ser un número entero entre ${QR_MIN_SIZE} y ${QR_MAX_SIZE} píxeles`,
  margin: `El margen debe ser un número entero entre 0 y ${QR_MAX_MARGIN} módulos`,
  color: 'El color debe ser un color hexadecimal, como #000000',
  background: 'El fondo debe ser un color hexadecimal, como #ffffff',
  ecc: 'La corrección de errores debe ser L, M, Q o H',
  contrast: 'El color y el fondo se parecen demasiado: el código no se podría leer',
  dialogTitle: 'Descargar código QR',
  open: 'Código QR',
  download: 'Descargar',
  formatLabel: 'Formato',
  sizeLabel: 'Tamaño (píxeles)',
  marginLabel: 'Margen (módulos)',
  colorLabel: 'Color',
  backgroundLabel: 'Fondo',
  eccLabel: 'Corrección de errores',
  previewAlt: 'Vista previa del código QR',
  previewFailed: 'No se pudo generar la vista previa',
  scansNote: 'El código lleva a la dirección corta con ?qr=1: cada lectura cuenta como clic y como escaneo.',
} as const;

export const eccLabels: Record<QrEcc, string> = {
  L: 'L (7 %)',
  M: 'M (15 %)',
  Q: 'Q (25 %)',
  H: 'H (30 %)',
};

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** '#abc', 'abc', '#AABBCC' -> '#aabbcc'. */
export function normalizeHex(value: string): string {
  const digits = value.trim().replace(/^#/, '').toLowerCase();
  return `#${digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits}`;
}

const hexColor = (message: string) => z.string({ error: message }).trim().regex(HEX, message).transform(normalizeHex);

const luminance = (hex: string) => {
  const channel = (at: number) => {
    const c = parseInt(hex.slice(at, at + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
};

/** WCAG contrast ratio of two '#rrggbb' colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

const integer = (message: string, min: number, max: number) =>
  z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);

export const qrQuerySchema = z
  .object({
    format: z.enum(qrFormats, { error: qrMessages.format }).default('png'),
    size: integer(qrMessages.size, QR_MIN_SIZE, QR_MAX_SIZE).default(QR_DEFAULT_SIZE),
    margin: integer(qrMessages.margin, 0, QR_MAX_MARGIN).default(QR_DEFAULT_MARGIN),
    color: hexColor(qrMessages.color).default('#000000'),
    background: hexColor(qrMessages.background).default('#ffffff'),
    ecc: z.enum(qrEccLevels, { error: qrMessages.ecc }).default('M'),
  })
  .superRefine((value, ctx) => {
    if (contrastRatio(value.color, value.background) < QR_MIN_CONTRAST) {
      ctx.addIssue({ code: 'custom', path: ['background'], message: qrMessages.contrast });
    }
  });

export type QrQueryInput = z.input<typeof qrQuerySchema>;
export type QrOptions = z.output<typeof qrQuerySchema>;

/**
 * What a QR encodes: the short address in the URL standard's ASCII form, marked `?qr=1` so the
 * redirect counts the visit as a scan as well as a click (the mark never reaches the destination).
 */
export function qrAddressOf(shortLink: string): string {
  return `${qrTextOf(shortLink)}?${QR_SCAN_PARAMETER}=1`;
}

/** The QR's file name: the link's title (or 'link'), without characters file systems refuse. */
export function qrFileName(title: string, format: QrFormat = 'png'): string {
  const printable = [...title].filter((char) => char >= ' ' && char !== '\u007f').join('');
  const safe = printable.replace(/[\\/:*?"<>|]+/g, ' ').trim().replace(/^\.+/, '').trim();
  return `${safe || 'link'}.${format}`;
}

/**
 * Content-Disposition for a download named after the title: an ASCII `filename` for old clients
 * (accents dropped, anything else a '-') and the exact name in UTF-8 (RFC 6266 `filename*`).
 */
export function qrContentDisposition(title: string, format: QrFormat): string {
  const name = qrFileName(title, format);
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]|["\\%;]/g, '-');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
