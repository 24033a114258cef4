// The browser extension (extension/): its scripts bundled with what they use of common/ (no code
// is ever loaded from elsewhere), its pages, its manifest and its icons, drawn from the web app's
// favicon, into dist/extension/ (what "Load unpacked" and the end-to-end test load), then packed
// into dist/corto-extension.zip.
//
//   tsx scripts/build-extension.ts
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import sharp from 'sharp';
import { zipSync } from 'fflate';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(repoRoot, 'extension');
export const extensionDir = path.join(repoRoot, 'dist', 'extension');
export const extensionZip = path.join(repoRoot, 'dist', 'corto-extension.zip');

const scripts = ['popup.ts', 'options.ts', 'service-worker.ts'];
const copied = ['popup.html', 'options.html', 'extension.css'];
const iconSizes = [16, 32, 48, 128];

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? listFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`])),
  );
  return nested.flat().sort();
}

export async function buildExtension(): Promise<void> {
  await rm(extensionDir, { recursive: true, force: true });
  await mkdir(path.join(extensionDir, 'icons'), { recursive: true });
  await build({
    entryPoints: scripts.map((name) => path.join(source, name)),
    outdir: extensionDir,
    bundle: true,
    // Classic scripts: the service worker is not declared a module, and the pages need nothing more.
    format: 'iife',
    target: 'chrome116',
    minify: true,
    legalComments: 'none',
    tsconfig: path.join(repoRoot, 'tsconfig.extension.json'),
    logLevel: 'warning',
  });
  for (const name of copied) await writeFile(path.join(extensionDir, name), await readFile(path.join(source, name)));
  // The version is the project's: one number to bump.
  const { version } = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  const manifest = { ...(JSON.parse(await readFile(path.join(source, 'manifest.json'), 'utf8')) as object), version };
  await writeFile(path.join(extensionDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const favicon = await readFile(path.join(repoRoot, 'web', 'public', 'favicon.svg'));
  for (const size of iconSizes) {
    await sharp(favicon, { density: Math.ceil((72 * size) / 32) })
      .resize(size, size)
      .png()
      .toFile(path.join(extensionDir, 'icons', `icon-${size}.png`));
  }
  await writeFile(extensionZip, await packFolder(extensionDir));
}

/** Every file of a folder in one .zip (fflate: deflate, UTF-8 names); a fixed date, so the same files give the same bytes. */
export async function packFolder(dir: string): Promise<Buffer> {
  const files = await listFiles(dir);
  const entries = await Promise.all(files.map(async (name) => [name, new Uint8Array(await readFile(path.join(dir, name)))] as const));
  return Buffer.from(zipSync(Object.fromEntries(entries), { level: 9, mtime: new Date(1980, 0, 1) }));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildExtension();
  console.log(`Extensión lista: ${path.relative(repoRoot, extensionDir)}/ y ${path.relative(repoRoot, extensionZip)}`);
}
