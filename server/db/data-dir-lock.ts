import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export class DataDirLockedError extends Error {}

const LOCK_FILE = 'corto-instance.lock';
// Who holds the lock, for the message only: the lock itself is the kernel's.
const HOLDER_FILE = 'corto-instance.pid';

function holderOf(dataDir: string): string {
  try {
    const pid = readFileSync(path.join(dataDir, HOLDER_FILE), 'utf8').trim();
    return /^\d+$/.test(pid) ? ` (pid ${pid})` : '';
  } catch {
    return '';
  }
}

/**
 * One Corto process per data folder: SQLite tolerates a second writer, but two servers would each
 * hold their own cache and click queue and silently disagree.
 *
 * The lock is an exclusive SQLite transaction on a file of its own, that is an fcntl lock held by
 * the kernel: taking it is atomic (two simultaneous starts cannot both win), and the kernel frees
 * it when the process dies however it dies, so there is no stale lock to take over and no process
 * id to trust (in a container a restarted Corto often gets the very pid of the one that crashed).
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = new SQLite(path.join(dataDir, LOCK_FILE), { timeout: 0 });
  try {
    // Held until the connection closes; without it SQLite could let the lock go between statements.
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DataDirLockedError(
        `Otro proceso de Corto${holderOf(dataDir)} ya usa la carpeta de datos ${dataDir}. ` +
          'Deténlo o indica otra carpeta con DATA_DIR.',
      );
    }
    throw error;
  }
  writeFileSync(path.join(dataDir, HOLDER_FILE), String(process.pid));
  let released = false;
  return () => {
    if (released) return;
    released = true;
    lock.close();
  };
}
