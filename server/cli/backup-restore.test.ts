import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Link } from '@common/links/link-schemas';
import type { Database } from '../db/database';
import { agents } from '../redirect/redirect.test-support';
import { backupInstall } from './backup';
import { type Install, openServedInstall, runCli, seedLinks, storagePath } from './cli.test-support';
import { restoreInstall } from './restore';

async function totals(db: Database) {
  const clicks = Number((await sql<{ n: number }>`select count(*) as n from clicks`.execute(db)).rows[0]!.n);
  const counted = Number((await sql<{ n: number }>`select coalesce(sum(click_count), 0) as n from urls`.execute(db)).rows[0]!.n);
  const rolledUp = Number(
    (await sql<{ n: number }>`select coalesce(sum(clicks), 0) as n from click_rollups where dimension = 'total'`.execute(db)).rows[0]!.n,
  );
  return { clicks, counted, rolledUp };
}

/** Every link redirects to its destination from `install`, and its QR and the owner's picture are served with the same bytes. */
async function expectServes(install: Install, source: Install, links: Link[], picture: string) {
  for (const link of links) {
    const visit = await install.app.inject({ method: 'HEAD', url: `/${link.shortCode}` });
    expect(visit.statusCode).toBe(302);
    expect(visit.headers.location).toBe(link.originalUrl);
  }
  for (const address of [picture, ...links.map((link) => link.qr)]) {
    const restored = await install.app.inject({ method: 'GET', url: storagePath(address) });
    const original = await source.app.inject({ method: 'GET', url: storagePath(address) });
    expect(restored.statusCode).toBe(200);
    expect(restored.rawPayload.equals(original.rawPayload)).toBe(true);
  }
}

describe('backup and restore of the embedded install', () => {
  let folder: string;
  let source: Install;
  let seeded: Awaited<ReturnType<typeof seedLinks>>;
  let base: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'corto-backup-'));
    source = await openServedInstall(path.join(folder, 'data'));
    seeded = await seedLinks(source.app, 5);
    base = await source.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await source.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('backs up while redirects are served, and the restored install holds a consistent copy of every link, click and file', async () => {
    // Redirect load from 8 clients until the backup is done.
    let loading = true;
    let answered = 0;
    const load = Array.from({ length: 8 }, async (_, client) => {
      for (let i = client; loading; i++) {
        const link = seeded.links[i % seeded.links.length]!;
        const response = await fetch(`${base}/${link.shortCode}`, { redirect: 'manual', headers: { 'user-agent': agents.desktop } });
        expect(response.status).toBe(302);
        answered += 1;
      }
    });
    // Under load: first some clicks written, then the backup through the real command, beside the server.
    while (answered < 300) await new Promise((resolve) => setTimeout(resolve, 20));
    await source.app.appContext.clickWriter.flush();
    const file = path.join(folder, 'under-load.tar');
    const backup = await runCli(['backup', file], { DATA_DIR: source.config.dataDir });
    const answeredDuringBackup = answered;
    loading = false;
    await Promise.all(load);
    expect(backup.output).toContain('Copia guardada');
    expect(backup.code).toBe(0);
    expect(answered).toBeGreaterThan(answeredDuringBackup - 1);

    // A real tar: the system's tar lists it.
    const listed = execFileSync('tar', ['-tf', file], { encoding: 'utf8' }).trim().split('\n');
    expect(listed).toContain('corto.db');
    expect(listed.filter((name) => name.startsWith('storage/qrs/'))).toHaveLength(5);
    expect(listed.filter((name) => name.startsWith('storage/profile-pictures/'))).toHaveLength(1);

    const restoredDir = path.join(folder, 'restored');
    const restore = await runCli(['restore', file], { DATA_DIR: restoredDir });
    expect(restore.output).toContain('restaurada');
    expect(restore.code).toBe(0);

    const restored = await openServedInstall(restoredDir);
    try {
      const copy = await totals(restored.database.db);
      // A snapshot of one instant: at least the clicks written before it, and raw clicks, each
      // link's count and the roll-ups agreeing exactly (a copy torn by the writer would not).
      expect(copy.clicks).toBeGreaterThanOrEqual(300);
      expect(copy.counted).toBe(copy.clicks);
      expect(copy.rolledUp).toBe(copy.clicks);
      await expectServes(restored, source, seeded.links, seeded.user.profileImage);
    } finally {
      await restored.close();
    }
    // Two command processes (backup, restore) beside a server under load: over 20 s with CI's three
    // suites on two cores.
  }, 60_000);

  it('once the clicks are written, the restored install has exactly the same links and clicks', async () => {
    await source.app.appContext.clickWriter.flush();
    const file = path.join(folder, 'quiet.tar');
    const result = await backupInstall(source.config.dataDir, file);
    expect(result.files).toBe(6);
    const restoredDir = path.join(folder, 'restored-quiet');
    await restoreInstall(file, restoredDir);
    const restored = await openServedInstall(restoredDir);
    try {
      const expected = await totals(source.database.db);
      expect(expected.clicks).toBeGreaterThan(300);
      expect(await totals(restored.database.db)).toEqual(expected);
      const links = async (install: Install) =>
        install.database.db.selectFrom('urls').select(['id', 'short_url', 'original_url', 'click_count', 'qr']).orderBy('id').execute();
      expect(await links(restored)).toEqual(await links(source));
      await expectServes(restored, source, seeded.links, seeded.user.profileImage);
    } finally {
      await restored.close();
    }
  });

  it('refuses to restore over a folder that holds anything, unless --force', async () => {
    const file = path.join(folder, 'again.tar');
    await backupInstall(source.config.dataDir, file);
    const target = path.join(folder, 'occupied');
    await restoreInstall(file, target);
    await writeFile(path.join(target, 'nota.txt'), 'de la operadora');

    const refused = await runCli(['restore', file], { DATA_DIR: target });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('nota.txt): usa --force');

    const forced = await runCli(['restore', '--force', file], { DATA_DIR: target });
    expect(forced.code).toBe(0);
    expect(await readdir(target)).toContain('corto.db');
  });

  it('refuses an archive that is not a backup of Corto, leaving the folder untouched', async () => {
    const bogus = path.join(folder, 'bogus.tar');
    await writeFile(path.join(folder, 'hello.txt'), 'hola');
    execFileSync('tar', ['-cf', bogus, '-C', folder, 'hello.txt']);
    const target = path.join(folder, 'untouched');
    await expect(restoreInstall(bogus, target)).rejects.toThrow('no es una copia de Corto');
    expect((await readdir(target)).filter((name) => !name.startsWith('corto-instance'))).toEqual([]);

    await writeFile(path.join(folder, 'garbage.tar'), Buffer.alloc(2048, 7));
    await expect(restoreInstall(path.join(folder, 'garbage.tar'), target)).rejects.toThrow('no es un archivo tar de Corto');
  });

  it('refuses to write over an existing file', async () => {
    const file = path.join(folder, 'exists.tar');
    await writeFile(file, 'ya estaba');
    await expect(backupInstall(source.config.dataDir, file)).rejects.toThrow('ya existe');
  });
});
