// `corto restore <file>`: a backup archive into the data folder, which must be empty (or --force).
// The archive is unpacked beside it first and checked (a tar of Corto's, a database SQLite
// accepts); only then does it replace anything, so a bad archive leaves the folder as it was.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Command } from 'commander';
import { loadConfig } from '../config';
import { lockDataDir } from '../db/data-dir-lock';
import { BACKUP_FORMAT, DATABASE_FILE, entryTarget, MANIFEST, type Manifest } from './backup-archive';
import { readTar, TarFormatError } from './tar';

export class RestoreError extends Error {}

/** Files of the instance lock (lockDataDir: the lock, its journal, the holder's pid). */
const isLockFile = (name: string) => name.startsWith('corto-instance.');
/** What a restore replaces in a data folder. */
const REPLACED = [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, 'storage', MANIFEST];

async function unpack(file: string, into: string): Promise<Manifest> {
  let files = 0;
  let hasDatabase = false;
  try {
    for await (const entry of readTar(file)) {
      const target = entryTarget(entry.name);
      if (!target) throw new RestoreError(`${file} no es una copia de Corto (contiene ${JSON.stringify(entry.name)})`);
      await entry.extractTo(path.join(into, target));
      if (target === DATABASE_FILE) hasDatabase = true;
      else if (target !== MANIFEST) files += 1;
    }
  } catch (error) {
    if (error instanceof TarFormatError) throw new RestoreError(`${file}: ${error.message}`);
    throw error;
  }
  const manifest = JSON.parse(await readFile(path.join(into, MANIFEST), 'utf8').catch(() => 'null')) as Manifest | null;
  if (!hasDatabase || !manifest || manifest.format !== BACKUP_FORMAT) {
    throw new RestoreError(`${file} no es una copia de Corto completa`);
  }
  if (manifest.files !== files) throw new RestoreError(`${file} está incompleto: ${files} de ${manifest.files} archivos`);
  const sqlite = new SQLite(path.join(into, DATABASE_FILE), { fileMustExist: true });
  try {
    const check = sqlite.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new RestoreError(`La base de datos de ${file} está dañada: ${String(check)}`);
  } finally {
    sqlite.close();
  }
  return manifest;
}

export async function restoreInstall(file: string, dataDir: string, { force = false } = {}): Promise<Manifest> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // No server may run on the folder meanwhile (nor start): the same lock an instance takes.
  const unlock = lockDataDir(dataDir);
  const staging = path.join(dataDir, `.restore-${randomBytes(4).toString('hex')}`);
  try {
    const present = (await readdir(dataDir)).filter((name) => !isLockFile(name) && name !== path.basename(staging));
    if (present.length > 0 && !force) {
      throw new RestoreError(`La carpeta de datos ${dataDir} no está vacía (${present.slice(0, 3).join(', ')}): usa --force para reemplazar su contenido`);
    }
    const manifest = await unpack(file, staging);
    for (const name of REPLACED) await rm(path.join(dataDir, name), { recursive: true, force: true });
    for (const name of await readdir(staging)) await rename(path.join(staging, name), path.join(dataDir, name));
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
    unlock();
  }
}

export const registerRestore = (program: Command) => {
  program
    .command('restore')
    .description('Restaura una copia hecha con backup en la carpeta de datos (DATA_DIR), que debe estar vacía')
    .argument('<archivo>', 'la copia')
    .option('--force', 'reemplaza la base de datos y los archivos que ya haya en la carpeta')
    .action(async (file: string, options: { force?: boolean }) => {
      const { dataDir } = loadConfig();
      const manifest = await restoreInstall(path.resolve(file), dataDir, { force: options.force === true });
      console.log(`Copia del ${manifest.createdAt} restaurada en ${dataDir}: base de datos y ${manifest.files} archivos.`);
    });
};
