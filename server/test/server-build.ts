import { mkdir, mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { THREAD_BUNDLES_ENV } from '../db/database-thread';
import { serverBuildOptions } from '../../scripts/build-server';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A new folder holding the server as production builds it: main.js, the CLI's corto.js and the
 * database, QR and import threads' entries. It sits inside node_modules so that the packages the
 * bundles leave out resolve from it.
 */
export async function makeServerBuild(): Promise<string> {
  const cache = path.join(repoRoot, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const outdir = await mkdtemp(path.join(cache, 'corto-test-build-'));
  await build({ ...serverBuildOptions(outdir), sourcemap: false });
  return outdir;
}

const sources = { main: 'server/main.ts', corto: 'server/cli/corto.ts' } as const;

/**
 * The file a test runs in a process of its own for the server (`main`) or the operator's CLI
 * (`corto`): the global set-up's build of it when there is one, else its source (run through tsx).
 * A start from source compiles some 1,500 modules, about 4 s of CPU against under 1 s bundled, and
 * the suite starts about a hundred of them.
 */
export function entryFile(entry: keyof typeof sources): string {
  const built = process.env[THREAD_BUNDLES_ENV];
  return built ? path.join(built, `${entry}.js`) : path.join(repoRoot, sources[entry]);
}

/** Node's arguments that run `entry` (entryFile), with tsx's hooks only for a source file. */
export function entryArgs(entry: keyof typeof sources): string[] {
  const file = entryFile(entry);
  return file.endsWith('.ts') ? ['--import', 'tsx', file] : [file];
}
