import { adminMessages } from '@common/admin/admin-messages';
import { importAliasRepeated, linkMessages as m } from '@common/links/link-messages';
import type { ImportResult, Link, LinkList } from '@common/links/link-schemas';
import { qrAddressOf } from '@common/links/qr-options';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, registerAdmin } from '../admin/admin-test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { multipart, registerUser, sameOrigin } from '../test/test-users';
import { createLinkAs, decodeQr } from './links.test-support';

// The import creates rows a chunk at a time (link-import-creation.ts); each row must still be
// created or refused exactly as a single POST /api/links would be, in the file's order.

describe.each(testDialects)('import rules on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await createTestApp(dialect, { LINKS_PER_HOUR: '0' });
    ({ cookie } = await registerUser(t.app));
  });
  afterEach(async () => t.close());

  const importCsv = async (lines: string[]) => {
    const body = await multipart({ file: { bytes: Buffer.from(['title,longUrl,customUrl,tags', ...lines].join('\n')), filename: 'links.csv', type: 'text/csv' } });
    const response = await t.app.inject({ method: 'POST', url: '/api/links/import', headers: { cookie, ...sameOrigin, ...body.headers }, payload: body.payload });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ImportResult;
  };
  const linksOf = async (query = '') =>
    ((await t.app.inject({ method: 'GET', url: `/api/links?limit=200${query}`, headers: { cookie } })).json() as LinkList).links;

  it('refuses what a single creation refuses: an alias taken earlier in the file, by a link or as a former alias, a blocked domain, a private destination', async () => {
    const other = await registerUser(t.app);
    await createLinkAs(t.app, other.cookie, { customUrl: 'ocupado' });
    const moved = await createLinkAs(t.app, other.cookie, { customUrl: 'antiguo' });
    expect((await call(t.app, other.cookie, 'PATCH', `/api/links/${moved.id}`, { customUrl: 'nuevo' })).statusCode).toBe(200);
    const admin = await registerAdmin(t);
    expect((await call(t.app, admin.cookie, 'PUT', '/api/admin/settings', { signup: 'open', blockedDomains: ['malo.example'] })).statusCode).toBe(200);

    const result = await importCsv([
      'Uno,https://example.com/1,repetido,', // 2: created
      'Dos,https://example.com/2,REPETIDO,', // 3: the same address as row 2
      'Tres,https://example.com/3,Antiguo,', // 4: someone's former alias
      'Cuatro,https://www.malo.example/x,,', // 5: blocked domain
      'Cinco,http://192.168.1.10/,,', // 6: private destination
      'Seis,https://example.com/6,ocupado,', // 7: someone's alias
      'Siete,https://example.com/7,,verano|Verano', // 8: created, one tag
      'Ocho,https://example.com/8,repetido-2,', // 9: created
    ]);
    expect(result).toEqual({
      created: 3,
      failed: [
        { row: 3, error: importAliasRepeated(2) },
        { row: 4, error: m.aliasTaken },
        { row: 5, error: adminMessages.domainBlocked },
        { row: 6, error: m.longUrlPrivate },
        { row: 7, error: m.aliasTaken },
      ],
      overQuota: 0,
      retryAfterSeconds: null,
    });
    const links = await linksOf();
    expect(links.map((link) => link.title).sort()).toEqual(['Ocho', 'Siete', 'Uno']);
    expect(links.find((link) => link.title === 'Siete')!.tags).toEqual(['verano']);
  });

  it('imports a file of several chunks in order: an alias a later chunk repeats is refused, tags are shared, every QR is stored and reads as its address', async () => {
    await createLinkAs(t.app, cookie, { tags: ['Lote'] }); // a tag the user has keeps its spelling
    const lines = Array.from({ length: 450 }, (_, i) => {
      const row = i + 2;
      if (row === 300) return 'Sin destino,no-es-url,,';
      const alias = row === 10 ? 'lote-alias' : row === 420 ? 'LOTE-ALIAS' : '';
      return `Fila ${row},https://example.com/${row},${alias},lote|${row % 2 === 0 ? 'par' : 'impar'}`;
    });
    // The dialog's «Creando 200 de 450…»: polled while the import runs, then nothing under way.
    const progressOf = async () => (await t.app.inject({ method: 'GET', url: '/api/links/import/progress', headers: { cookie } })).json();
    const importing = importCsv(lines);
    let finished = false;
    void importing.finally(() => (finished = true));
    const seen: { running: boolean; done: number; total: number }[] = [];
    while (!finished) {
      seen.push(await progressOf());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const result = await importing;
    expect(seen.filter((progress) => progress.running && progress.total === 450 && progress.done > 0 && progress.done < 450).length).toBeGreaterThan(0);
    expect(await progressOf()).toEqual({ running: false, done: 0, total: 0 });
    expect(result).toMatchObject({ created: 448, failed: [{ row: 300, error: m.longUrlInvalid }, { row: 420, error: importAliasRepeated(10) }] });

    // Rows 2 to 451: 225 even and 225 odd, less rows 300 and 420.
    const { tags } = (await t.app.inject({ method: 'GET', url: '/api/tags', headers: { cookie } })).json();
    expect(tags).toEqual([
      { name: 'impar', links: 225 },
      { name: 'Lote', links: 449 },
      { name: 'par', links: 223 },
    ]);
    const aliased = (await linksOf('&q=Fila%2010')).find((link) => link.title === 'Fila 10');
    expect(aliased).toMatchObject({ title: 'Fila 10', customUrl: 'lote-alias', originalUrl: 'https://example.com/10' });
    const newest = (await linksOf())[0]!;
    for (const link of [aliased!, newest] as Link[]) {
      const png = await t.app.inject({ method: 'GET', url: link.qr });
      expect(png.statusCode).toBe(200);
      expect(await decodeQr(png.rawPayload)).toBe(qrAddressOf(link.shortLink));
    }
  });

  it('creates the rows one by one when another request takes one of their addresses between the check and the insert', async () => {
    const other = await registerUser(t.app);
    const { storage } = t.app.appContext;
    const put = storage.put.bind(storage);
    let raced = false;
    // While the import stores its first QR, someone else creates a link with an alias the file asks for.
    storage.put = async (...args) => {
      if (!raced) {
        raced = true;
        await createLinkAs(t.app, other.cookie, { customUrl: 'carrera' });
      }
      return put(...args);
    };
    const result = await importCsv(['Uno,https://example.com/1,,', 'Dos,https://example.com/2,carrera,', 'Tres,https://example.com/3,,']);
    expect(raced).toBe(true);
    expect(result).toMatchObject({ created: 2, failed: [{ row: 3, error: m.aliasTaken }] });
    expect((await linksOf()).map((link) => link.title).sort()).toEqual(['Tres', 'Uno']);
    // No file is left behind for the refused row: every stored QR belongs to a link.
    const keys: string[] = [];
    for await (const object of storage.list('qrs')) keys.push(object.key);
    const links = [...(await linksOf()), ...((await t.app.inject({ method: 'GET', url: '/api/links', headers: { cookie: other.cookie } })).json() as LinkList).links];
    expect(keys.sort()).toEqual(links.map((link) => `qr-${link.shortCode}.png`).sort());
  });
});
