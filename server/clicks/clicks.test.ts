import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents, clickCount, insertLink, rollup } from '../redirect/redirect.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { tablesOfThisDatabase } from '../test/database-tables';

describe.each(testDialects)('clicks recorded by GET /:code on %s', (dialect) => {
  let t: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    proxied = await createTestApp(dialect, { TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await t.close();
    await proxied.close();
  });

  const visit = (app: TestApp, code: string, headers: Record<string, string> = {}, remoteAddress?: string) =>
    app.app.inject({ method: 'GET', url: `/${code}`, headers, ...(remoteAddress ? { remoteAddress } : {}) });

  it('tells mobile, tablet and desktop apart by user agent, and counts a missing one as desktop', async () => {
    const link = await insertLink(t.database.db);
    for (const agent of [agents.iphone, agents.android, agents.ipad, agents.desktop]) {
      expect((await visit(t, link.shortUrl, { 'user-agent': agent })).statusCode).toBe(302);
    }
    // inject() sends its own agent unless told otherwise; an empty header is what "none" looks like.
    expect((await visit(t, link.shortUrl, { 'user-agent': '' })).statusCode).toBe(302);
    await t.app.appContext.clickWriter.flush();

    const rows = await t.database.db
      .selectFrom('clicks')
      .select(['device', 'browser', 'os'])
      .where('url_id', '=', link.id)
      .orderBy('id')
      .execute();
    expect(rows.map((row) => row.device)).toEqual(['mobile', 'mobile', 'tablet', 'desktop', 'desktop']);
    expect(rows[0]).toMatchObject({ browser: 'Mobile Safari', os: 'iOS' });
    expect(rows[1]).toMatchObject({ browser: 'Chrome', os: 'Android' });
    expect(rows[3]).toMatchObject({ browser: 'Chrome', os: 'Windows' });
    expect(await rollup(t.database.db, link.id, 'device')).toEqual({ mobile: 2, tablet: 1, desktop: 2 });
    expect(await rollup(t.database.db, link.id, 'total')).toEqual({ '': 5 });
    expect(await clickCount(t.database.db, link.id)).toBe(5);
  });

  it('flags a crawler and a link-preview fetcher as bots and leaves them out of the counts', async () => {
    const link = await insertLink(t.database.db);
    expect((await visit(t, link.shortUrl, { 'user-agent': agents.googlebot })).statusCode).toBe(302);
    expect((await visit(t, link.shortUrl, { 'user-agent': agents.whatsapp })).statusCode).toBe(302);
    expect((await visit(t, link.shortUrl, { 'user-agent': agents.desktop })).statusCode).toBe(302);
    await t.app.appContext.clickWriter.flush();

    const rows = await t.database.db.selectFrom('clicks').select('is_bot').where('url_id', '=', link.id).orderBy('id').execute();
    expect(rows.map((row) => Number(row.is_bot))).toEqual([1, 1, 0]);
    expect(await clickCount(t.database.db, link.id)).toBe(1);
    expect(await rollup(t.database.db, link.id, 'total')).toEqual({ '': 1 });
    expect(await rollup(t.database.db, link.id, 'bots')).toEqual({ '': 2 });
    expect(await rollup(t.database.db, link.id, 'device')).toEqual({ desktop: 1 });
  });

  it('locates 8.8.8.8 in the United States through X-Forwarded-For when TRUST_PROXY is on', async () => {
    const link = await insertLink(proxied.database.db);
    const response = await visit(proxied, link.shortUrl, { 'user-agent': agents.desktop, 'x-forwarded-for': '8.8.8.8' });
    expect(response.statusCode).toBe(302);
    await proxied.app.appContext.clickWriter.flush();
    const row = await proxied.database.db.selectFrom('clicks').select(['country', 'city']).where('url_id', '=', link.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ country: 'US', city: 'Mountain View' });
    expect(await rollup(proxied.database.db, link.id, 'country')).toEqual({ US: 1 });
  });

  it('ignores X-Forwarded-For without TRUST_PROXY, and locates loopback as Unknown', async () => {
    const link = await insertLink(t.database.db);
    await visit(t, link.shortUrl, { 'user-agent': agents.desktop, 'x-forwarded-for': '8.8.8.8' }, '127.0.0.1');
    await visit(t, link.shortUrl, { 'user-agent': agents.desktop }, '::ffff:1.1.1.1');
    await t.app.appContext.clickWriter.flush();
    const rows = await t.database.db.selectFrom('clicks').select(['country', 'city']).where('url_id', '=', link.id).orderBy('id').execute();
    expect(rows).toEqual([
      { country: 'Unknown', city: 'Unknown' },
      { country: 'AU', city: 'Sydney' },
    ]);
  });

  it('keeps the referring domain, and counts each visitor once a day', async () => {
    const link = await insertLink(t.database.db);
    const from = { 'user-agent': agents.desktop, referer: 'https://www.twitter.com/some/post?id=1' };
    await visit(t, link.shortUrl, from, '1.1.1.1');
    await visit(t, link.shortUrl, from, '1.1.1.1');
    await visit(t, link.shortUrl, { 'user-agent': agents.iphone }, '1.1.1.1');
    await visit(t, link.shortUrl, { 'user-agent': agents.desktop }, '8.8.8.8');
    await t.app.appContext.clickWriter.flush();
    expect(await rollup(t.database.db, link.id, 'referrer')).toEqual({ 'twitter.com': 2, '': 2 });
    expect(await rollup(t.database.db, link.id, 'visitors')).toEqual({ '': 3 });
    // A second flush with a returning visitor does not count them again.
    await visit(t, link.shortUrl, from, '1.1.1.1');
    await t.app.appContext.clickWriter.flush();
    expect(await rollup(t.database.db, link.id, 'visitors')).toEqual({ '': 3 });
    expect(await rollup(t.database.db, link.id, 'total')).toEqual({ '': 5 });
  });

  it('stores no IP address: no such column, and the visitor address appears in no stored value', async () => {
    const link = await insertLink(proxied.database.db);
    await visit(proxied, link.shortUrl, { 'user-agent': agents.android, 'x-forwarded-for': '203.0.113.77' });
    await visit(proxied, link.shortUrl, { 'user-agent': agents.android, 'x-forwarded-for': '2001:db8::77' });
    await proxied.app.appContext.clickWriter.flush();
    const db = proxied.database.db;
    const tables = await tablesOfThisDatabase(db);
    for (const table of tables) {
      for (const column of table.columns) expect(column).not.toMatch(/(^|_)ip($|_)|address/i);
      const rows = await db.selectFrom(table.name as 'clicks').selectAll().execute();
      const dump = JSON.stringify(rows);
      expect(dump).not.toContain('203.0.113.77');
      expect(dump).not.toContain('2001:db8::77');
    }
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['clicks', 'click_visitors', 'click_rollups']));
  });
});
