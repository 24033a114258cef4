import { existsSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DATABASE_THREAD_LIMITS } from '../memory/heap-settings';

// What the click writer's and the database readers' threads share: how they start, and how their
// errors travel back with the driver's code.

/**
 * A folder holding the threads' entries already bundled, for a process running from source: a
 * thread compiling its TypeScript costs about 0.3 s of CPU, a bundled one a tenth of that, and the
 * tests start hundreds (their global set-up bundles the entries once a run).
 */
export const THREAD_BUNDLES_ENV = 'CORTO_THREAD_BUNDLES';

/**
 * Starts the thread whose entry is `name` beside the module at `callerUrl` (its import.meta.url).
 * Bundled, the entry sits beside main.js as plain JS; from source it is TypeScript, which a
 * worker can only load once tsx's hooks are registered in it.
 */
export function startDatabaseThread(callerUrl: string, name: string, workerData: unknown): Worker {
  const here = path.dirname(fileURLToPath(callerUrl));
  const bundled = path.join(process.env[THREAD_BUNDLES_ENV] ?? here, `${name}.js`);
  if (existsSync(bundled)) return new Worker(bundled, { workerData, resourceLimits: DATABASE_THREAD_LIMITS });
  const source = pathToFileURL(path.join(here, `${name}.ts`)).href;
  // tsx's ESM entry (require.resolve would give the CommonJS one, which cannot register hooks here).
  const tsxDir = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsx = pathToFileURL(path.join(tsxDir, 'dist/esm/api/index.mjs')).href;
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(boot, { eval: true, workerData, resourceLimits: DATABASE_THREAD_LIMITS });
}

/** An error as a database thread sends it back: its message, and the driver's code when it has one. */
export function workerErrorFields(error: unknown): { message: string; code: string | undefined } {
  const { message, code } = (error ?? {}) as { message?: string; code?: unknown };
  return { message: String(message ?? error), code: typeof code === 'string' ? code : undefined };
}

/**
 * That error again on the main thread, carrying the driver's code: the click writer tells bad data
 * from a busy database by it, the error handler a busy database (503).
 */
export class DatabaseThreadError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** The nice value of a reader's thread: the event loop gets the CPU first when both want it. */
export const READER_THREAD_NICE = 10;

/**
 * Lowers the calling thread's priority, and only its own: on Linux a thread has a nice value of
 * its own, addressed by its thread id (which /proc/thread-self names). Reads that take tens of
 * milliseconds (a search of 100,000 titles, a year of statistics) then yield a shared core to the
 * event loop's redirects instead of taking turns with them. Elsewhere it does nothing.
 */
export function lowerThisThreadPriority(nice = READER_THREAD_NICE): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    // Not Linux (no /proc/thread-self): the thread keeps the process's priority.
  }
}
