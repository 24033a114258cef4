// `corto backup <file>`: the embedded install in one tar file, while it serves. SQLite's online
// backup API copies a consistent snapshot of the database (the server keeps reading and writing
// meanwhile), then the stored files (QR images, profile pictures) are added. A file is stored
// before the row naming it, so every file the snapshot names already exists when it is copied.
import { randomBytes } from 'node:crypto';
import { access, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Command } from 'commander';
import { loadConfig } from '../config';
import { allBuckets, BACKUP_FORMAT, DATABASE_FILE, localFiles, MANIFEST, type Manifest } from './backup-archive';
import { createTar } from './tar';

export class BackupError extends Error {}

export interface BackupResult {
  file: string;
  files: number;
  /** Files the snapshot named that were removed (their link or account deleted) before being copied. */
  missing: number;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

export async function backupInstall(dataDir: string, file: string): Promise<BackupResult> {
  const source = path.join(dataDir, DATABASE_FILE);
  if (!(await exists(source))) throw new BackupError(`No hay ninguna base de datos de Corto en ${dataDir}`);
  if (await exists(file)) throw new BackupError(`${file} ya existe: elige otro nombre`);

  const staging = await mkdtemp(path.join(path.dirname(path.resolve(file)), '.corto-backup-'));
  const partial = `${file}.${randomBytes(4).toString('hex')}.partial`;
  try {
    const snapshot = path.join(staging, DATABASE_FILE);
    const sqlite = new SQLite(source, { fileMustExist: true });
    try {
      await sqlite.backup(snapshot);
    } finally {
      sqlite.close();
    }

    const storageRoot = path.join(dataDir, 'storage');
    const stored = await localFiles(storageRoot);
    const manifest: Manifest = { format: BACKUP_FORMAT, createdAt: new Date().toISOString(), files: 0 };
    const tar = createTar(partial);
    let missing = 0;
    // The manifest goes last, once the copied files are counted; restore reads the whole archive anyway.
    await tar.addFile(DATABASE_FILE, snapshot);
    for (const [bucket, key] of stored) {
      try {
        await tar.addFile(`storage/${bucket}/${key}`, path.join(storageRoot, bucket, key));
        manifest.files += 1;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        missing += 1; // removed since it was listed
      }
    }
    const manifestFile = path.join(staging, MANIFEST);
    await writeFile(manifestFile, JSON.stringify(manifest, null, 2));
    await tar.addFile(MANIFEST, manifestFile);
    await tar.finish();
    await rename(partial, file);
    return { file, files: manifest.files, missing };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

export const registerBackup = (program: Command) => {
  program
    .command('backup')
    .description(`Copia la base de datos embebida y los archivos (${allBuckets.join(', ')}) en un archivo tar, sin parar el servidor`)
    .argument('<archivo>', 'el archivo que se crea (no debe existir)')
    .action(async (file: string) => {
      const { dataDir, databaseUrl } = loadConfig();
      if (databaseUrl) {
        throw new BackupError('backup copia la instalación embebida (SQLite); con PostgreSQL usa pg_dump');
      }
      const result = await backupInstall(dataDir, path.resolve(file));
      console.log(`Copia guardada en ${result.file}: base de datos y ${result.files} archivos.`);
    });
};
