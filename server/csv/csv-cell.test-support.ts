/** What a spreadsheet runs as a formula at a cell's start (OWASP's CSV injection list). */
export const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * The pieces of a CSV line split on `separator` without heeding quotes, as a spreadsheet set to
 * another separator or a naive reader cuts it, each without the quote and spaces it may open with.
 */
export const piecesOf = (line: string, separator: ',' | ';'): string[] => line.split(separator).map((piece) => piece.replace(/^[" ]+/, ''));
