import { mkdir, mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { serverBuildOptions, serverEntryPoints } from '../../scripts/build-server';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A new folder holding the database, QR and import threads' entries bundled as production builds
 * them. It sits inside node_modules so that the packages the bundles leave out resolve from it.
 */
export async function makeThreadBundles(): Promise<string> {
  const cache = path.join(repoRoot, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const outdir = await mkdtemp(path.join(cache, 'corto-test-threads-'));
  const threadEntries = serverEntryPoints.filter((entry) => entry.endsWith('-worker.ts')).map((entry) => path.join(repoRoot, entry));
  await build({ ...serverBuildOptions(outdir), entryPoints: threadEntries, sourcemap: false });
  return outdir;
}
