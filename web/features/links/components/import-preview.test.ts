import { describe, expect, it } from 'vitest';
import { previewOf } from './import-preview';

describe('the import preview', () => {
  it('numbers rows as lines of the file, counts them all, and names every line whose quote is never closed', () => {
    const text = ['title;longUrl', 'Uno;https://example.com/1', '', 'Roto;"https://example.com/2', ...Array.from({ length: 8 }, (_, i) => `T${i};https://example.com/${i}`), 'Otro;"sin cerrar'].join('\r\n');
    const preview = previewOf(new TextEncoder().encode(text))!;
    expect({ ...preview, rows: undefined }).toEqual({ separator: ';', encoding: 'utf-8', header: ['title', 'longUrl'], rowCount: 11, malformed: [4, 13], rows: undefined });
    expect(preview.rows.map((row) => row.line)).toEqual([2, 4, 5, 6, 7]);
    expect(preview.rows[0]!.cells).toEqual(['Uno', 'https://example.com/1']);
    expect(preview.rows[1]!.cells).toBeUndefined();
  });

  it('has nothing to show for a file that is not text or has no header', () => {
    expect(previewOf(Uint8Array.from([0x89, 0, 0]))).toBeUndefined();
    expect(previewOf(new TextEncoder().encode('\n \n'))).toBeUndefined();
  });
});
