// Reading an import file's bytes as text, the same way in the browser's preview and on the server:
// its encoding (UTF-8, UTF-16 with its byte order mark, else Windows-1252, what Spanish Excel
// writes as «CSV (delimitado por comas)») and its separator (',' ';' or a tab, from the header
// row), so a file saved by a spreadsheet in any language reads as it was written.

export type ImportEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
export type ImportSeparator = ',' | ';' | '\t';

export const encodingLabels: Record<ImportEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16',
  'utf-16be': 'UTF-16',
  'windows-1252': 'Windows-1252',
};
export const separatorLabels: Record<ImportSeparator, string> = { ',': 'coma', ';': 'punto y coma', '\t': 'tabulador' };

/** «Separador: punto y coma · Codificación: Windows-1252», as the preview says it. */
export const detectedText = (separator: ImportSeparator, encoding: ImportEncoding) =>
  `Separador: ${separatorLabels[separator]} · Codificación: ${encodingLabels[encoding]}`;

/**
 * Windows-1252's characters for the bytes 0x80 to 0x9F (the rest are Latin-1's, byte for byte):
 * '€', curly quotes, dashes... Written out rather than left to TextDecoder, which Node reads as
 * Latin-1 (0x80 a control character) where browsers give '€'; the five unassigned bytes stay as
 * the control characters of the same number, as browsers decode them.
 */
const CP1252_HIGH =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

function windows1252(bytes: Uint8Array): string {
  let text = '';
  for (let at = 0; at < bytes.length; at += 8192) {
    const chunk = bytes.subarray(at, at + 8192);
    text += String.fromCharCode(...Array.from(chunk, (byte) => (byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH.charCodeAt(byte - 0x80) : byte)));
  }
  return text;
}

/** The bytes looked at for a NUL, the mark of a file that is not text. */
const SNIFF_BYTES = 64 * 1024;

/**
 * The file's text (its byte order mark removed) and encoding, or undefined when it is not text
 * (a NUL byte outside a UTF-16 file). UTF-8 is tried first and strictly; bytes that are not UTF-8
 * are read as Windows-1252, where every byte is a character (Excel's «CSV» on a Spanish Windows).
 */
export function decodeImport(bytes: Uint8Array): { text: string; encoding: ImportEncoding } | undefined {
  const utf16: ImportEncoding | undefined =
    bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : undefined;
  if (utf16) {
    try {
      return { text: new TextDecoder(utf16, { fatal: true }).decode(bytes), encoding: utf16 };
    } catch {
      return undefined;
    }
  }
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return undefined;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, ''), encoding: 'utf-8' };
  } catch {
    return { text: windows1252(bytes), encoding: 'windows-1252' };
  }
}

/** How many times `separator` splits `line`, quoted cells left out. */
function countOutsideQuotes(line: string, separator: string): number {
  let count = 0;
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === separator) count += 1;
  }
  return count;
}

/** The separator of a file, from its header (its first line that is not blank): the one that splits it most; ',' when none does. */
export function detectSeparator(text: string): ImportSeparator {
  const header = /^[ \t]*\S[^\r\n]*/m.exec(text)?.[0] ?? '';
  let best: ImportSeparator = ',';
  let most = 0;
  for (const separator of [',', ';', '\t'] as const) {
    const count = countOutsideQuotes(header, separator);
    if (count > most) [best, most] = [separator, count];
  }
  return best;
}

/**
 * Whether a line opens a quoted cell and never closes it: the one way a row could run into the
 * lines after it. One pass, as csv-parse reads a line (spaces before a cell's opening quote allowed,
 * '""' an escaped quote, a quote inside an unquoted cell a character).
 */
export function quoteLeftOpen(line: string, separator: ImportSeparator): boolean {
  const end = line.length;
  let at = 0;
  while (at <= end) {
    let start = at;
    while (start < end && (line[start] === ' ' || (line[start] === '\t' && separator !== '\t'))) start += 1;
    let from = start;
    if (line[start] === '"') {
      for (let quote = line.indexOf('"', start + 1); ; quote = line.indexOf('"', quote + 2)) {
        if (quote === -1) return true;
        if (line[quote + 1] !== '"') {
          from = quote + 1;
          break;
        }
      }
    }
    const next = line.indexOf(separator, from);
    if (next === -1) return false;
    at = next + 1;
  }
  return false;
}
