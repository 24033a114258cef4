import { existsSync } from 'node:fs';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { sweepOrphans } from './orphan-sweep';

const HOUR_MS = 60 * 60 * 1000;

describe.each(testDialects)('sweepOrphans on %s', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
  });
  afterEach(async () => t.close());

  const folder = (bucket: string) => path.join(t.config.dataDir, 'storage', bucket);
  const place = async (bucket: string, name: string, ageMs: number) => {
    const file = path.join(folder(bucket), name);
    await writeFile(file, 'x');
    const when = (Date.now() - ageMs) / 1000;
    await utimes(file, when, when);
    return file;
  };
  const age = async (bucket: string, name: string, ageMs: number) => {
    const when = (Date.now() - ageMs) / 1000;
    await utimes(path.join(folder(bucket), name), when, when);
  };

  it('removes old files no row names and old leftovers of interrupted writes, and keeps the rest', async () => {
    const { user, cookie } = await registerUser(t.app);
    const link = await createLinkAs(t.app, cookie);
    const qrName = path.basename(link.qr);
    const pictureName = path.basename(decodeURIComponent(user.profileImage));
    // Named by rows, and old: kept.
    await age('qrs', qrName, 3 * HOUR_MS);
    await age('profile-pictures', pictureName, 3 * HOUR_MS);
    const oldOrphanQr = await place('qrs', 'qr-zzz999.png', 2 * HOUR_MS);
    const oldOrphanPicture = await place('profile-pictures', 'dp-Nadie-1.png', 2 * HOUR_MS);
    const oldPartial = await place('qrs', `${qrName}.1a2b3c.partial`, 2 * HOUR_MS);
    // A link being created right now has its QR before its row: a fresh orphan is kept.
    const freshOrphan = await place('qrs', 'qr-nuevo1.png', 5 * 60 * 1000);
    const freshPartial = await place('profile-pictures', 'dp-Ana-2.png.4d5e6f.partial', 1000);
    // A name the server never makes is not ours to judge.
    const byHand = await place('qrs', 'copia de seguridad.png', 2 * HOUR_MS);

    const result = await sweepOrphans({ db: t.database.db, storage: t.app.appContext.storage });

    expect(result).toEqual({ orphans: 2, partials: 1 });
    for (const gone of [oldOrphanQr, oldOrphanPicture, oldPartial]) expect(existsSync(gone), gone).toBe(false);
    for (const kept of [freshOrphan, freshPartial, byHand]) expect(existsSync(kept), kept).toBe(true);
    expect((await readdir(folder('qrs'))).sort()).toEqual(['copia de seguridad.png', qrName, 'qr-nuevo1.png'].sort());
    expect(await readdir(folder('profile-pictures'))).toContain(pictureName);
    // And the link's QR is still served.
    expect((await t.app.inject({ method: 'GET', url: link.qr })).statusCode).toBe(200);
  });

  it('checks thousands of files in batches, and copes with buckets that do not exist yet', async () => {
    expect(await sweepOrphans({ db: t.database.db, storage: t.app.appContext.storage })).toEqual({ orphans: 0, partials: 0 });
    const { cookie } = await registerUser(t.app);
    const links = await Promise.all(Array.from({ length: 3 }, () => createLinkAs(t.app, cookie)));
    for (const link of links) await age('qrs', path.basename(link.qr), 2 * HOUR_MS);
    for (let i = 0; i < 1200; i += 1) await place('qrs', `qr-huerfano${i}.png`, 2 * HOUR_MS);
    expect(await sweepOrphans({ db: t.database.db, storage: t.app.appContext.storage })).toEqual({ orphans: 1200, partials: 0 });
    expect((await readdir(folder('qrs'))).sort()).toEqual(links.map((link) => path.basename(link.qr)).sort());
  });
});
