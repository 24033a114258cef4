import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Link } from '@common/links/link-schemas';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { agents } from '../redirect/redirect.test-support';
import { createLocalStorage } from '../storage/local-storage';
import { postgresSchema } from '../test/postgres-schema';
import { sameOrigin } from '../test/test-users';
import { type Install, openServedInstall, runCli, seedLinks, storagePath } from './cli.test-support';
import { copyToPostgres } from './to-postgres';
import { localFiles } from './backup-archive';
import { sql } from 'kysely';

const url = process.env.TEST_DATABASE_URL;

interface Seen {
  links: unknown;
  stats: unknown[];
  files: string[];
}

/** What a signed-in user and a visitor see of the install: the list with totals, each link's stats, the files' bytes. */
async function seen(install: Install, cookie: string, links: Link[], picture: string): Promise<Seen> {
  const list = await install.app.inject({ method: 'GET', url: '/api/links', headers: { cookie } });
  expect(list.statusCode).toBe(200);
  const stats = [];
  for (const link of links) {
    const response = await install.app.inject({ method: 'GET', url: `/api/links/${link.id}/stats`, headers: { cookie } });
    expect(response.statusCode).toBe(200);
    stats.push(response.json());
  }
  const files = [];
  for (const address of [picture, ...links.map((link) => link.qr)]) {
    const response = await install.app.inject({ method: 'GET', url: storagePath(address) });
    expect(response.statusCode).toBe(200);
    files.push(response.rawPayload.toString('base64'));
  }
  return { links: list.json(), stats, files };
}

describe.skipIf(!url)('to-postgres: an embedded install moved into PostgreSQL', { timeout: 120_000 }, () => {
  let folder: string;
  let schema: Awaited<ReturnType<typeof postgresSchema>>;
  let seeded: Awaited<ReturnType<typeof seedLinks>>;
  let before: Seen;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'corto-to-pg-'));
    schema = await postgresSchema(url!);
    const source = await openServedInstall(path.join(folder, 'embedded'));
    try {
      seeded = await seedLinks(source.app, 4);
      for (const [index, link] of seeded.links.entries()) {
        for (let visit = 0; visit <= index * 3; visit++) {
          const qr = visit % 2 === 0 ? '?qr=1' : '';
          await source.app.inject({ method: 'GET', url: `/${link.shortCode}${qr}`, headers: { 'user-agent': agents.iphone }, remoteAddress: '8.8.8.8' });
        }
      }
      await source.app.inject({ method: 'GET', url: `/${seeded.links[0]!.shortCode}`, headers: { 'user-agent': agents.googlebot } });
      await source.app.appContext.clickWriter.flush();
      before = await seen(source, seeded.cookie, seeded.links, seeded.user.profileImage);
    } finally {
      await source.close();
    }
  }, 120_000);
  afterAll(async () => {
    await schema.drop();
    await rm(folder, { recursive: true, force: true });
  });

  it('copies every table and file, and PostgreSQL serves the same links, counts, statistics, sessions and pictures', async () => {
    const result = await runCli(['to-postgres', schema.urlWithSchema], { DATA_DIR: path.join(folder, 'embedded') });
    expect(result.output).toContain('Copia comprobada');
    expect(result.code).toBe(0);
    expect(result.output).toMatch(/^clicks: 23 filas$/m); // 1 + 4 + 7 + 10 human visits and the bot's

    // The same files into another store (as an S3 bucket would be), through the storage interface.
    const target = openDatabase({ kind: 'postgres', url: schema.urlWithSchema });
    try {
      await migrateToLatest(target.db);
      const copy = await copyToPostgres({
        dataDir: path.join(folder, 'embedded'),
        target: target.db,
        storage: createLocalStorage(path.join(folder, 'moved', 'storage')),
      });
      expect(copy.files).toBe(5);
      // Run again: nothing doubled.
      expect(copy.tables.find((table) => table.table === 'clicks')?.rows).toBe(23);
      expect(copy.tables.find((table) => table.table === 'urls')?.rows).toBe(4);
    } finally {
      await target.close();
    }

    const moved = await openServedInstall(path.join(folder, 'moved'), schema.urlWithSchema);
    try {
      expect(moved.database.dialect).toBe('postgres');
      // The same session cookie works: sessions moved too.
      expect(await seen(moved, seeded.cookie, seeded.links, seeded.user.profileImage)).toEqual(before);
      for (const link of seeded.links) {
        const visit = await moved.app.inject({ method: 'HEAD', url: `/${link.shortCode}` });
        expect(visit.headers.location).toBe(link.originalUrl);
      }
      // Identity values continue after the copied ones: a new link gets a new id, and is listed with the rest.
      const created = await moved.app.inject({
        method: 'POST',
        url: '/api/links',
        headers: { cookie: seeded.cookie, ...sameOrigin },
        payload: { title: 'Nuevo en PostgreSQL', longUrl: 'https://example.com/nuevo' },
      });
      expect(created.statusCode).toBe(201);
      expect((created.json() as { link: Link }).link.id).toBeGreaterThan(Math.max(...seeded.links.map((link) => link.id)));
      const list = await moved.app.inject({ method: 'GET', url: '/api/links', headers: { cookie: seeded.cookie } });
      expect((list.json() as { totals: { links: number; clicks: number } }).totals).toEqual({
        links: 5,
        clicks: (before.links as { totals: { clicks: number } }).totals.clicks,
      });
    } finally {
      await moved.close();
    }
  });

  it('refuses a re-run once a server has used the copy, before writing anything (no data of the cut-over reverted)', async () => {
    // The first test started a server on the copy and created a link there; now an admin renames an account.
    const target = openDatabase({ kind: 'postgres', url: schema.urlWithSchema });
    try {
      await sql`update users set name = 'Cambiada tras el paso'`.execute(target.db);
      const result = await runCli(['to-postgres', schema.urlWithSchema], { DATA_DIR: path.join(folder, 'embedded') });
      expect(result.code).toBe(1);
      expect(result.output).toContain('ha cambiado desde la copia');
      expect(result.output).toContain('no se ha escrito nada');
      const names = await sql<{ name: string }>`select distinct name from users`.execute(target.db);
      expect(names.rows).toEqual([{ name: 'Cambiada tras el paso' }]);
      const links = await sql<{ n: string }>`select count(*) as n from urls`.execute(target.db);
      expect(Number(links.rows[0]!.n)).toBe(5);
    } finally {
      await target.close();
    }
  });

  it('re-run on an unused copy, replaces it with the install as it is now (deleted links go), with progress, leaving local files untouched', async () => {
    const other = await postgresSchema(url!);
    const dataDir = path.join(folder, 'embedded');
    try {
      const storageRoot = path.join(dataDir, 'storage');
      const files = await localFiles(storageRoot);
      const stamp = async () => Promise.all(files.map(async ([bucket, key]) => {
        const info = await stat(path.join(storageRoot, bucket, key));
        return `${bucket}/${key}:${info.ino}:${info.mtimeMs}`;
      }));
      const before = await stamp();

      const first = await runCli(['to-postgres', other.urlWithSchema], { DATA_DIR: dataDir });
      expect(first.code).toBe(0);
      expect(first.output).toMatch(/^Filas: \d+ de \d+/m);
      expect(first.output).toContain('5 archivos, que siguen en');
      // No S3 store: the files are where the PostgreSQL install reads them, not written onto themselves.
      expect(await stamp()).toEqual(before);

      // The install goes on a while (a link deleted), then is copied again before anyone used the copy.
      const source = await openServedInstall(dataDir);
      try {
        const removed = await source.app.inject({ method: 'DELETE', url: `/api/links/${seeded.links[3]!.id}`, headers: { cookie: seeded.cookie, ...sameOrigin } });
        expect(removed.statusCode).toBeLessThan(300);
      } finally {
        await source.close();
      }
      const second = await runCli(['to-postgres', other.urlWithSchema], { DATA_DIR: dataDir });
      expect(second.output).toMatch(/^urls: 3 filas$/m);
      expect(second.code).toBe(0);
    } finally {
      await other.drop();
    }
  });

  it('refuses while a server holds the data folder', async () => {
    const running = await openServedInstall(path.join(folder, 'busy'));
    try {
      const result = await runCli(['to-postgres', schema.urlWithSchema], { DATA_DIR: path.join(folder, 'busy') });
      expect(result.code).toBe(1);
      expect(result.output).toContain('Otro proceso de Corto');
    } finally {
      await running.close();
    }
  });
});
