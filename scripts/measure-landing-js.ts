// Prints the gzip size of every JavaScript file the landing page loads: the entry script of
// dist/web/index.html, its modulepreloads, and whatever those import statically.
// Run after `npm run build:web`: npx tsx scripts/measure-landing-js.ts [--max-kb 110]
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const webDist = process.env.WEB_DIST ?? path.resolve(import.meta.dirname, '../dist/web');
const indexHtml = path.join(webDist, 'index.html');
if (!existsSync(indexHtml)) {
  console.error('No existe dist/web/index.html: ejecuta antes `npm run build:web`.');
  process.exit(1);
}

const html = readFileSync(indexHtml, 'utf8');
const roots = [
  ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
  ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
].map((match) => match[1] as string);

// Static imports between chunks ("import{...}from"./x.js""); dynamic import() is left out on purpose.
const staticImport = /(?:^|[;}\s])import(?:[^"'();]*?from)?\s*["'](\.{1,2}\/[^"']+\.js)["']/g;

const seen = new Map<string, number>();
const queue = roots.map((src) => path.join(webDist, src));
while (queue.length > 0) {
  const file = queue.shift() as string;
  if (seen.has(file)) continue;
  const code = readFileSync(file);
  seen.set(file, gzipSync(code).length);
  for (const match of code.toString('utf8').matchAll(staticImport)) {
    queue.push(path.resolve(path.dirname(file), match[1] as string));
  }
}

const kb = (bytes: number) => (bytes / 1000).toFixed(2);
let total = 0;
for (const [file, bytes] of seen) {
  total += bytes;
  console.log(`${kb(bytes).padStart(8)} kB  ${path.relative(webDist, file)}`);
}
console.log(`${kb(total).padStart(8)} kB  total JavaScript (gzip) loaded by the landing page`);

const maxIndex = process.argv.indexOf('--max-kb');
if (maxIndex !== -1) {
  const max = Number(process.argv[maxIndex + 1]);
  if (total / 1000 > max) {
    console.error(`Over budget: ${kb(total)} kB > ${max} kB`);
    process.exit(1);
  }
}
