import { describe, expect, it } from 'vitest';
import { csvCell, defuse, undefuse } from '@common/csv/csv-cell';
import { FORMULA_START, piecesOf } from './csv-cell.test-support';

describe('csvCell', () => {
  it('prefixes text a spreadsheet would run as a formula with an apostrophe', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+34')).toBe("'+34");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe(`"'\tcmd"`);
  });

  it('defuses a formula after every , or ; or line break, not only at the start', () => {
    expect(csvCell('x;=1+1')).toBe(`"x;'=1+1"`);
    expect(csvCell('a, +b')).toBe(`"a, '+b"`);
    expect(csvCell('a\n@b')).toBe(`"a\n'@b"`);
    expect(csvCell('a;\r=b')).toBe(`"a;'\r'=b"`);
  });

  it('quotes separators, quotes and line breaks, always when asked, and leaves plain text and null alone', () => {
    expect(csvCell('São Paulo')).toBe('São Paulo');
    expect(csvCell('São Paulo', 'always')).toBe('"São Paulo"');
    expect(csvCell('Washington, D.C.')).toBe('"Washington, D.C."');
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('a\nb')).toBe('"a\nb"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(null, 'always')).toBe('""');
  });

  it('leaves no piece of a line starting a formula, split on , or on ;', () => {
    const hostile = ['x;=1+1/', '=cmd|calc', 'a,+1;-2', ' @x', ';\t=y', "';=2", 'b;\r=3', 'ok', "''=z"];
    const line = hostile.map((text) => csvCell(text, 'always')).join(',');
    for (const separator of [',', ';'] as const) {
      for (const piece of piecesOf(line, separator)) expect(piece, `split on ${separator}`).not.toMatch(FORMULA_START);
    }
  });

  it('undefuse gives back exactly what defuse changed, apostrophes the text had included', () => {
    for (const text of ['=1', "'=1", "''=1", 'x;=1', "x;'=1", 'a, +b', 'a;\r=b', ";'\r'=", 'plain', "it's", '-', ' -5', '']) {
      expect(undefuse(defuse(text)), JSON.stringify(text)).toBe(text);
    }
  });
});
