import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupInstall } from './backup';
import { type Install, openServedInstall, seedLinks } from './cli.test-support';
import { restoreInstall } from './restore';

// The database holds accounts, sessions and password hashes: neither it nor a copy of it is
// readable by the machine's other users.
const privateTo = async (file: string) => ({ file: path.basename(file), others: (await stat(file)).mode & 0o077 });

describe('the embedded install and its backups are private to their owner', { timeout: 60_000 }, () => {
  let folder: string;
  let install: Install;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'corto-modes-'));
    install = await openServedInstall(path.join(folder, 'data'));
    await seedLinks(install.app, 1);
  });
  afterAll(async () => {
    await install.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('creates the data folder 0700 and the database (with its WAL files) 0600', async () => {
    const data = path.join(folder, 'data');
    expect(await privateTo(data)).toEqual({ file: 'data', others: 0 });
    const databaseFiles = (await readdir(data)).filter((name) => name.startsWith('corto.db'));
    expect(databaseFiles).toContain('corto.db-wal');
    for (const name of databaseFiles) expect(await privateTo(path.join(data, name))).toEqual({ file: name, others: 0 });
  });

  it('writes backup archives 0600, and a restore makes its folder 0700 and its database 0600', async () => {
    const archive = path.join(folder, 'copia.tar');
    await backupInstall(path.join(folder, 'data'), archive);
    expect(await privateTo(archive)).toEqual({ file: 'copia.tar', others: 0 });
    const restored = path.join(folder, 'restaurada');
    await restoreInstall(archive, restored);
    expect(await privateTo(restored)).toEqual({ file: 'restaurada', others: 0 });
    expect(await privateTo(path.join(restored, 'corto.db'))).toEqual({ file: 'corto.db', others: 0 });
  });
});
