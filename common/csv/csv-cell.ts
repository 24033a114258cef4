// Writing CSV cells, for every file Corto hands out (the links export, the clicks export), and
// reading back what the writing changed (the import). RFC 4180 quoting, and no cell a spreadsheet
// runs as a formula whichever separator it splits on: English Excel splits on ',', Spanish Excel
// and LibreOffice in most of Europe on ';', and a naive reader splits without heeding quotes. So
// every place a piece of a cell could start (the cell's start, and after each ',', ';' or line
// break) that begins, after spaces, with = + - @ tab or CR (OWASP's CSV injection list) gets an
// apostrophe there, which a spreadsheet shows as text and never evaluates.

/** Where a spreadsheet could start a cell: the text's start, or after a separator or line break. */
const DEFUSE = /(^|[,;\r\n])( *)(?='*[=+\-@\t\r])/g;
/** The same places, with the apostrophe DEFUSE put there. */
const UNDEFUSE = /(^|[,;\r\n])( *)'(?='*[=+\-@\t\r])/g;
/** What makes a cell need quotes: a quote, either separator, a tab or a line break. */
const NEEDS_QUOTES = /[",;\t\r\n]/;

/**
 * The text as a spreadsheet may open it: an apostrophe before each formula start (one more
 * where apostrophes already stand, so `undefuse` gives the text back exactly).
 */
export const defuse = (text: string): string => text.replace(DEFUSE, "$1$2'");

/** The text as it was before `defuse` (the import takes an exported file back as it was). */
export const undefuse = (text: string): string => text.replace(UNDEFUSE, '$1$2');

/**
 * One CSV field: defused, and in double quotes when it needs them or when `quote` asks (the cells
 * a visitor can write are always quoted, so a spreadsheet never splits one).
 */
export function csvCell(value: string | null, quote: 'always' | 'needed' = 'needed'): string {
  const text = defuse(value ?? '');
  return quote === 'always' || NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
