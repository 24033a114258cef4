import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkMessages as m } from '@common/links/link-messages';
import type { ImportResult, Link, LinkList } from '@common/links/link-schemas';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { makeImage, multipart, registerUser, sameOrigin } from '../test/test-users';
import { createLinkAs } from './links.test-support';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'import-fixtures');

describe.each(testDialects)('export, bulk and import on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await createTestApp(dialect, { LINKS_PER_HOUR: '0' });
    ({ cookie } = await registerUser(t.app));
  });
  afterEach(async () => t.close());

  const allLinks = async (who = cookie) =>
    ((await t.app.inject({ method: 'GET', url: '/api/links?limit=200&order=asc', headers: { cookie: who } })).json() as LinkList).links;
  const exportCsv = (who = cookie) => t.app.inject({ method: 'GET', url: '/api/links.csv', headers: { cookie: who } });
  const importFile = async (bytes: Buffer, filename = 'links.csv', type = 'text/csv') => {
    const body = await multipart({ file: { bytes, filename, type } });
    return t.app.inject({ method: 'POST', url: '/api/links/import', headers: { cookie, ...sameOrigin, ...body.headers }, payload: body.payload });
  };
  const bulk = (links: unknown[], key?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/links/bulk',
      headers: { cookie, ...sameOrigin, ...(key ? { 'idempotency-key': key } : {}) },
      payload: { links },
    });

  it("exports every link of the caller as CSV, formulas defused, and the file imports back as it was", async () => {
    await createLinkAs(t.app, cookie, { title: '=HYPERLINK("http://malo.example")', longUrl: 'https://example.com/a', tags: ['-menos', 'Verano'] });
    await createLinkAs(t.app, cookie, { title: 'Precios, "2026"', longUrl: 'https://example.com/b?x=1&y=2', customUrl: 'precios-26' });
    await createLinkAs(t.app, (await registerUser(t.app)).cookie, { title: 'Ajeno' });
    const response = await exportCsv();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="links-\d{4}-\d{2}-\d{2}\.csv"$/);
    const records = parse(response.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(Object.keys(records[0]!)).toEqual([
      'title',
      'longUrl',
      'customUrl',
      'tags',
      'domain',
      'shortLink',
      'clicks',
      'scans',
      'status',
      'createdAt',
      'rules',
      'variants',
      'redirect_type',
    ]);
    expect(records.map((record) => record.title)).toEqual(['\'=HYPERLINK("http://malo.example")', 'Precios, "2026"']);
    expect(records[0]).toMatchObject({ tags: "'-menos|Verano", clicks: '0', scans: '0', status: 'Activo', customUrl: '' });
    expect(records[1]).toMatchObject({ customUrl: 'precios-26', shortLink: `${t.config.publicBaseUrl}/precios-26` });

    const before = await allLinks();
    for (const link of before) await t.app.inject({ method: 'DELETE', url: `/api/links/${link.id}`, headers: { cookie, ...sameOrigin } });
    const imported = await importFile(Buffer.from(response.body));
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json()).toEqual({ created: 2, failed: [], overQuota: 0, retryAfterSeconds: null });
    // Rows are created a few at a time: the set is the same, the order of creation may differ.
    const shape = (links: Link[]) =>
      links.map(({ title, originalUrl, customUrl, tags }) => ({ title, originalUrl, customUrl, tags })).sort((a, b) => a.title.localeCompare(b.title));
    expect(shape(await allLinks())).toEqual(shape(before));
  });

  it('streams a header alone for a user without links', async () => {
    const response = await exportCsv();
    expect(response.body).toBe('\uFEFFtitle,longUrl,customUrl,tags,domain,shortLink,clicks,scans,status,createdAt,rules,variants,redirect_type\r\n');
  });

  it('creates each body of a bulk request on its own, in order, and a repeated Idempotency-Key creates nothing twice', async () => {
    await createLinkAs(t.app, cookie, { customUrl: 'ocupado' });
    const bodies = [
      { title: 'Uno', longUrl: 'https://example.com/1', tags: ['lote'] },
      { title: '', longUrl: 'no-es-url' },
      { title: 'Tres', longUrl: 'https://example.com/3', customUrl: 'ocupado' },
      { title: 'Cuatro', longUrl: 'https://example.com/4', userId: 1 },
      { title: 'Cinco', longUrl: 'https://example.com/5' },
    ];
    const response = await bulk(bodies, 'lote-1');
    expect(response.statusCode).toBe(200);
    const { results } = response.json() as { results: ({ link: Link } | { error: { code: string; fields?: Record<string, string[]> } })[] };
    expect(results.map((result) => ('link' in result ? result.link.title : result.error.code))).toEqual(['Uno', 'validation', 'conflict', 'validation', 'Cinco']);
    expect(results[1]).toMatchObject({ error: { fields: { title: [m.titleRequired], longUrl: [m.longUrlInvalid] } } });
    expect(results[2]).toMatchObject({ error: { fields: { customUrl: [m.aliasTaken] } } });
    expect((results[0] as { link: Link }).link.tags).toEqual(['lote']);
    expect(await allLinks()).toHaveLength(3);

    const replay = await bulk(bodies, 'lote-1');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(response.json());
    expect(await allLinks()).toHaveLength(3);
    expect((await bulk([bodies[0]], 'lote-1')).statusCode).toBe(422);
  });

  it('refuses an empty bulk, more than 100 bodies, and a body that is not a list', async () => {
    for (const links of [[], Array.from({ length: 101 }, (_, i) => ({ title: `t${i}`, longUrl: 'https://example.com' }))]) {
      const response = await bulk(links);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields.links).toEqual([links.length === 0 ? m.bulkInvalid : m.bulkTooMany]);
    }
    const notList = await t.app.inject({ method: 'POST', url: '/api/links/bulk', headers: { cookie, ...sameOrigin }, payload: { links: 'x' } });
    expect(notList.statusCode).toBe(400);
    expect(await allLinks()).toHaveLength(0);
  });

  it.each([
    ['corto.csv', 3, [{ row: 4, error: m.longUrlInvalid }], { title: 'Folleto de verano', customUrl: 'folleto-verano', tags: ['impreso', 'Verano'] }],
    ['shlink.csv', 3, [{ row: 4, error: m.aliasLength }], { title: 'Documentación de Shlink', customUrl: 'shl-uno', tags: ['docs', 'shlink'] }],
    ['kutt.csv', 2, [{ row: 3, error: m.longUrlProtocol }], { title: 'Kutt', customUrl: 'kutt-uno', tags: [] }],
    ['yourls.csv', 2, [], { title: 'YOURLS', customUrl: 'yourls-uno', tags: [] }],
    ['bitly.csv', 2, [], { title: 'About Bitly', customUrl: 'bitly-marca', tags: ['empresa', 'marca'] }],
  ])('imports %s, recognised by its columns, reporting each bad row in Spanish', async (name, rows, failed, first) => {
    const response = await importFile(await readFile(path.join(fixtures, name)), name);
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json() as ImportResult;
    expect(result).toEqual({ created: rows - failed.length, failed, overQuota: 0, retryAfterSeconds: null });
    const links = await allLinks();
    expect(links).toHaveLength(rows - failed.length);
    expect(links.find((link) => link.title === first.title)).toMatchObject(first);
    // A row without a title takes its destination's host.
    if (name !== 'corto.csv' && name !== 'kutt.csv') expect(links.map((link) => link.title)).toContainEqual(expect.stringMatching(/^(example|github)\.[a-z]+$/));
  });

  it('goes on past a malformed row and a taken alias, and numbers rows as lines of the file', async () => {
    await createLinkAs(t.app, cookie, { customUrl: 'tomada' });
    const csv = 'title,longUrl,customUrl,tags\nUno,https://example.com/1,tomada,\nDos,"https://example.com/2,\nTres,https://example.com/3,,a|b\n';
    const result = (await importFile(Buffer.from(csv))).json() as ImportResult;
    // The unclosed quote of line 3 is blamed on line 3 and never swallows line 4.
    expect(result).toEqual({
      created: 1,
      failed: [
        { row: 2, error: m.aliasTaken },
        { row: 3, error: m.importRowMalformed },
      ],
      overQuota: 0,
      retryAfterSeconds: null,
    });
    expect((await allLinks()).map((link) => link.title)).toEqual([expect.any(String), 'Tres']);
  });

  it('reads a CSV saved by Spanish Excel: semicolons, CRLF and Windows-1252', async () => {
    const text = 'title;longUrl;customUrl;tags\r\nÑoquis caseros;https://example.com/ñoquis;ñoquis;cocina|Año\r\n"Precios; 2026";https://example.com/p;;\r\n';
    // Latin-1 and Windows-1252 agree on every character here: 'Ñ' is the one byte 0xD1.
    const response = await importFile(Buffer.from(text, 'latin1'));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ created: 2, failed: [], overQuota: 0, retryAfterSeconds: null });
    const links = await allLinks();
    expect(links.map(({ title, customUrl, tags }) => ({ title, customUrl, tags }))).toEqual([
      { title: 'Ñoquis caseros', customUrl: 'ñoquis', tags: ['Año', 'cocina'] },
      { title: 'Precios; 2026', customUrl: null, tags: [] },
    ]);
    expect(decodeURI(links[0]!.originalUrl)).toBe('https://example.com/ñoquis');
  });

  it("maps Bitly's web export, whose alias column is «Custom back-half»", async () => {
    const csv = 'Title,Bitlink,Custom back-half,Long URL,Created,Tags\nMarca,bit.ly/3abc,mi-marca,https://example.com/marca,2026-01-01,\n';
    expect((await importFile(Buffer.from(csv))).json()).toEqual({ created: 1, failed: [], overQuota: 0, retryAfterSeconds: null });
    expect(await allLinks()).toMatchObject([{ title: 'Marca', customUrl: 'mi-marca', originalUrl: 'https://example.com/marca' }]);
  });

  it('answers 400 in Spanish to a file that is not CSV, to unknown columns and to no file', async () => {
    const png = await importFile(await makeImage(), 'foto.png', 'image/png');
    expect(png.statusCode).toBe(400);
    expect(png.json().error.message).toBe(m.importNotCsv);
    const unknown = await importFile(Buffer.from('nombre,apellido\nAna,Pérez\n'));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe(m.importUnknownColumns);
    const empty = await importFile(Buffer.from(''));
    expect(empty.statusCode).toBe(400);
    const none = await t.app.inject({ method: 'POST', url: '/api/links/import', headers: { cookie, ...sameOrigin }, payload: {} });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toBe(m.importFileMissing);
    expect(await allLinks()).toHaveLength(0);
  });
});
