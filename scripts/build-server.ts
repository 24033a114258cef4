// The server as production runs it: one bundle per entry (the server, its database threads, the
// import's QR thread, the operator's CLI), with the packages inside it. A start then reads a few
// files instead of resolving and compiling some 1,500 modules of node_modules one by one, which
// took half of the time to listening (and, with that many modules loaded, left V8's caches for
// process.nextTick's literal megamorphic, a slower event loop on every redirect). Code only some
// installs or requests need (pg, nodemailer, sharp, file-type, the common-password list) is
// imported where it is used and lands in chunks of its own, read the first time it is needed.
//
//   tsx scripts/build-server.ts [outdir]      (default dist/server; the benches build elsewhere)
//
// A running server loads parts of its bundle long after it started (a database reader's thread, the
// chunk of pg or nodemailer), so a build never writes over or deletes the files of a build a process
// may be running: each build goes into a folder of its own beside the last (dist/server.<stamp>),
// and dist/server, a symbolic link, is swapped to it in one rename. Node runs a module from its
// real path, so a process started before the swap keeps loading its own build's files.
import { lstat, mkdir, readdir, rename, rm, rmdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Left in node_modules: native addons, and packages that read files of their own at run time (the
 * API explorer's pages, pino's transport threads, the IP database) or are large and loaded only
 * with S3 storage.
 */
const externalPackages = [
  'better-sqlite3',
  'sharp',
  '@node-rs/argon2',
  'pino',
  '@aws-sdk/client-s3',
  '@ip-location-db/*',
  // pg's optional native binding, never installed.
  'pg-native',
];

export const serverEntryPoints = [
  'server/main.ts',
  'server/clicks/sqlite-writer-worker.ts',
  'server/db/sqlite-reader-worker.ts',
  'server/links/qr-worker.ts',
  'server/links/import-worker.ts',
  'server/cli/corto.ts',
];

export function serverBuildOptions(outdir: string): BuildOptions {
  return {
    entryPoints: serverEntryPoints.map((file) => path.join(repoRoot, file)),
    bundle: true,
    splitting: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    external: externalPackages,
    // Chunks beside the entries: modules find their neighbours (the database threads, the web app)
    // from their own import.meta.url.
    outdir,
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    sourcemap: true,
    // Function and class names kept for stack traces and logs.
    keepNames: true,
    // CommonJS packages inside an ES module still call require() for Node's own modules.
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
    logLevel: 'warning',
  };
}

/**
 * esbuild writes code as ASCII but keeps comments as they are. One character beyond Latin-1 in a
 * comment (three en dashes in a package's were enough) makes V8 hold that whole file's source,
 * kept as long as the process runs, at two bytes a character: 3.4 MB more for main.js alone.
 * Written as \u escapes, non-ASCII characters leave the comments readable and every file one byte
 * a character.
 */
export function asciiOnly(code: string): string {
  return code.replace(/[\u0080-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Builds kept beside the current one (the ones a process started before the last swaps may run). */
export const PREVIOUS_BUILDS_KEPT = 2;

const stamp = () => `${new Date().toISOString().replace(/[-:.]/g, '').replace('T', '-').slice(0, 18)}-${process.pid}`;

/** `outdir`'s builds (outdir.<stamp> folders beside it), oldest first. */
async function buildsOf(outdir: string): Promise<string[]> {
  const prefix = `${path.basename(outdir)}.`;
  const names = (await readdir(path.dirname(outdir))).filter((name) => name.startsWith(prefix) && !name.endsWith('.link'));
  return names.sort().map((name) => path.join(path.dirname(outdir), name));
}

/**
 * Builds the server into a new folder beside `outdir`, then points `outdir` (a symbolic link) at it.
 * Returns the new build's folder.
 */
export async function buildServer(outdir: string): Promise<string> {
  const target = `${outdir}.${stamp()}`;
  await rm(target, { recursive: true, force: true });
  const { outputFiles } = await build({ ...serverBuildOptions(target), write: false });
  for (const file of outputFiles) {
    await mkdir(path.dirname(file.path), { recursive: true });
    await writeFile(file.path, file.path.endsWith('.js') ? asciiOnly(file.text) : file.contents);
  }

  // A folder left by a build made before the link (or an empty one made for the build) moves aside.
  const current = await lstat(outdir).catch(() => undefined);
  if (current?.isDirectory()) {
    await rmdir(outdir).catch(() => rename(outdir, `${outdir}.0-before-link`));
  }
  // rename() replaces the link in one step: there is no moment without a dist/server.
  const link = `${outdir}.link`;
  await rm(link, { force: true });
  await symlink(path.basename(target), link);
  await rename(link, outdir);

  // Older builds go, but not the current one nor the last PREVIOUS_BUILDS_KEPT before it.
  const builds = await buildsOf(outdir);
  const kept = builds.indexOf(target) - PREVIOUS_BUILDS_KEPT;
  for (const old of builds.slice(0, Math.max(0, kept))) await rm(old, { recursive: true, force: true });
  return target;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer(path.resolve(repoRoot, process.argv[2] ?? 'dist/server'));
}
