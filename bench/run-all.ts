// `npm run bench`: every bench/*.bench.ts in turn, each printing its own figures and ratios.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(benchDir)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(benchDir, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
if (files.length === 0) console.log('No benchmarks found.');
process.exit(failed === 0 ? 0 : 1);
