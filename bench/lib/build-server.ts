import path from 'node:path';
import { buildServer } from '../../scripts/build-server';
import { repoRoot } from './processes';

// The server as production runs it (bundled JavaScript, the SQLite threads beside it), built with
// the same options as `npm run build:server` into bench/results/ (ignored by git) rather than dist/,
// which the end-to-end tests share.
export async function buildServerForBench(): Promise<string> {
  const outdir = path.join(repoRoot, 'bench/results/server');
  await buildServer(outdir);
  return path.relative(repoRoot, path.join(outdir, 'main.js'));
}
