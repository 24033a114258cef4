import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { asciiOnly, buildServer } from '../../scripts/build-server';

// V8 keeps each loaded file's source as long as the process runs, at two bytes a character as soon
// as one of them is beyond Latin-1 (scripts/build-server.ts).
describe('the server bundle', () => {
  it('writes every non-ASCII character as a \\u escape, and leaves the rest as it was', () => {
    expect(asciiOnly("// 'Esta sesión', Ñoquis, ok\nconst a = 1;")).toBe("// 'Esta sesi\\u00f3n', \\u00d1oquis, ok\nconst a = 1;");
    expect(asciiOnly('/* 🙂 */')).toBe('/* \\ud83d\\ude42 */');
  });

  it('is ASCII from end to end, comments included, so V8 holds its source at one byte a character', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'corto-bundle-'));
    const outdir = path.join(folder, 'server');
    try {
      await buildServer(outdir);
      const files = (await readdir(outdir)).filter((file) => file.endsWith('.js'));
      expect(files).toContain('main.js');
      for (const file of files) {
        const text = await readFile(path.join(outdir, file), 'utf8');
        expect({ file, nonAscii: text.match(/[\u0080-\uffff]/g) ?? [] }).toEqual({ file, nonAscii: [] });
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
