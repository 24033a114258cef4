import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { agents } from '../redirect/redirect.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { CSV_PAGE_ROWS, CSV_SLICE_ROWS, clicksCsv, csvFilename } from './csv-export';
import { FORMULA_START, piecesOf } from '../csv/csv-cell.test-support';
import { openDatabaseReader } from '../db/database-reader';
import { visit, writePastClicks } from './stats.test-support';

describe('csvFilename', () => {
  it('names the file with safe characters only', () => {
    expect(csvFilename('mi-Alias_1', Date.UTC(2026, 0, 2))).toBe('clicks-mi-Alias_1-2026-01-02.csv');
    expect(csvFilename('a"b\r\n;c', Date.UTC(2026, 0, 2))).toBe('clicks-abc-2026-01-02.csv');
  });
});

describe.each(testDialects)('GET /api/links/:id/clicks.csv on %s', (dialect) => {
  let t: TestApp;
  let owner: { cookie: string };
  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await registerUser(t.app);
  });
  afterAll(() => t.close());

  const download = (id: number, cookie?: string) =>
    t.app.inject({ method: 'GET', url: `/api/links/${id}/clicks.csv`, headers: cookie ? { cookie } : {} });

  it('is the owner\'s only: 401 anonymous, 404 for another user', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    expect((await download(link.id)).statusCode).toBe(401);
    const other = await registerUser(t.app);
    const foreign = await download(link.id, other.cookie);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('not_found');
  });

  it('downloads the human clicks as an attachment, bots left out, formulas defused', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    await visit(t, link.shortCode, '1.1.1.1', { 'user-agent': agents.iphone, referer: 'https://www.example.org/p' });
    await visit(t, link.shortCode, '8.8.8.8', { 'user-agent': agents.googlebot });
    await t.app.appContext.clickWriter.flush();
    await writePastClicks(t, link.id, [{ daysAgo: 3, city: '=cmd|calc', country: 'Unknown', browser: null, os: null }]);

    const response = await download(link.id, owner.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="clicks-[a-z0-9]{6}-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = response.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('date,country,city,device,browser,os,referrer,destination');
    expect(lines).toHaveLength(3);
    // A plain link's clicks all went to its own URL.
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z,"AU","Sydney","mobile","Mobile Safari","iOS","example\.org","https:\/\/example\.com\/a"$/);
    expect(lines[2]).toMatch(/,"Unknown","'=cmd\|calc","desktop","","","","https:\/\/example\.com\/a"$/);
  });

  it('quotes every cell a visitor writes and leaves no formula whether a spreadsheet splits on , or ;', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    // The attack's own header: a referrer whose host holds ';=1+1'.
    await visit(t, link.shortCode, '1.1.1.1', { 'user-agent': agents.iphone, referer: 'http://x;=1+1/' });
    await t.app.appContext.clickWriter.flush();
    await writePastClicks(t, link.id, [
      { daysAgo: 2, city: 'Sevilla;=HYPERLINK("http://malo.example")', country: 'ES', referrer: 'a.example, +1', browser: 'x;@SUM(A1)', os: 'y; -2+3' },
      { daysAgo: 1, city: '=1+1', country: "';=2", referrer: 'b.example;\t=3', browser: 'z,\r=4', os: null },
    ]);
    const response = await download(link.id, owner.cookie);
    expect(response.statusCode).toBe(200);
    const lines = response.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n').slice(1);
    expect(lines).toHaveLength(3);
    expect(lines.join('\n')).toContain('x;\'=1+1');
    for (const separator of [',', ';'] as const) {
      for (const piece of lines.flatMap((line) => piecesOf(line, separator))) expect(piece, `split on ${separator}`).not.toMatch(FORMULA_START);
    }
    // Read as CSV, each visitor's text comes back whole, one cell each, with its apostrophes.
    const records = parse(response.body, { bom: true, columns: true, relax_quotes: false }) as Record<string, string>[];
    expect(records.map((record) => record.city)).toContain('Sevilla;\'=HYPERLINK("http://malo.example")');
    expect(records.every((record) => Object.keys(record).length === 8)).toBe(true);
  });

  it('pages through more clicks than one page holds, each exactly once, in order', async () => {
    const link = await createLinkAs(t.app, owner.cookie);
    const count = CSV_PAGE_ROWS * 2 + 7;
    await writePastClicks(t, link.id, Array.from({ length: count }, (_, i) => ({ daysAgo: 1, city: `C${i}` })));
    const response = await download(link.id, owner.cookie);
    const cities = response.body.trimEnd().split('\r\n').slice(1).map((line) => line.split(',')[2]);
    expect(cities).toEqual(Array.from({ length: count }, (_, i) => `"C${i}"`));

    // The generator itself, with smaller pages: the header, then slices of each page.
    const chunks: string[] = [];
    const reader = openDatabaseReader(t.database, t.app.log, 'stats');
    try {
      for await (const chunk of clicksCsv(reader, link.id, link.originalUrl, 1000)) chunks.push(chunk);
    } finally {
      await reader.close();
    }
    const fullPages = Math.floor(count / 1000);
    expect(chunks).toHaveLength(1 + fullPages * Math.ceil(1000 / CSV_SLICE_ROWS) + Math.ceil((count % 1000) / CSV_SLICE_ROWS));
    expect(chunks.join('')).toBe(response.body);
  });
});
