import { crc32, inflateRawSync } from 'node:zlib';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packFolder } from './build-extension';

// The extension's package: read back by the zip format's own structure (end record -> central
// directory -> each local entry), as an unzip tool or a store reads it.

function readZip(zip: Buffer): { name: string; data: Buffer }[] {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files: { name: string; data: Buffer }[] = [];
  for (let index = 0; index < count; index += 1) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    const compressedSize = zip.readUInt32LE(local + 18);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = inflateRawSync(zip.subarray(start, start + compressedSize));
    expect(data.length).toBe(zip.readUInt32LE(local + 22));
    expect(crc32(data)).toBe(zip.readUInt32LE(local + 14));
    files.push({ name, data });
    at += 46 + nameLength;
  }
  return files;
}

async function folderOf(entries: { name: string; data: Buffer }[]): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'corto-pack-'));
  for (const { name, data } of entries) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), data);
  }
  return dir;
}

describe('packFolder', () => {
  it('packs files, folders and UTF-8 names so that they read back byte for byte', async () => {
    const entries = [
      { name: 'manifest.json', data: Buffer.from('{"manifest_version":3,"name":"Corto: acortar esta página"}') },
      { name: 'icons/icon-16.png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]) },
      { name: 'vacío.txt', data: Buffer.alloc(0) },
      { name: 'popup.js', data: Buffer.from('console.log(1);\n'.repeat(1000)) },
    ];
    const dir = await folderOf(entries);
    const zip = await packFolder(dir);
    await rm(dir, { recursive: true });
    const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1);
    expect(readZip(zip).sort(byName)).toEqual([...entries].sort(byName));
    // Deflated: the repetitive script shrinks.
    expect(zip.length).toBeLessThan(2000);
  });

  it('gives the same bytes for the same files (no clock inside)', async () => {
    const dir = await folderOf([{ name: 'a.txt', data: Buffer.from('hola') }]);
    const first = await packFolder(dir);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(first.equals(await packFolder(dir))).toBe(true);
    await rm(dir, { recursive: true });
  });
});
