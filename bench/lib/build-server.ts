import { existsSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from './processes';

// The server as production runs it (bundled JavaScript, the SQLite writer thread beside it), built
// into bench/results/ (ignored by git) rather than dist/, which the end-to-end tests share.
// Packages stay external and resolve from the repository's node_modules.
export async function buildServerForBench(): Promise<string> {
  const outdir = path.join(repoRoot, 'bench/results/server');
  await build({
    // The same entry points as build:server in package.json (the server and its worker threads).
    entryPoints: ['server/main.ts', 'server/clicks/sqlite-writer-worker.ts', 'server/db/sqlite-reader-worker.ts', 'server/links/qr-worker.ts']
      .map((file) => path.join(repoRoot, file))
      .filter((file) => existsSync(file)),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    outdir,
    entryNames: '[name]',
    logLevel: 'warning',
  });
  return path.relative(repoRoot, path.join(outdir, 'main.js'));
}
