import { linkMessages as m } from '@common/links/link-messages';
import type { ImportResult } from '@common/links/link-schemas';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { migrateToLatest } from '../db/migrate';
import { openDatabase } from '../db/database';
import { postgresSchema } from '../test/postgres-schema';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { multipart, registerUser, sameOrigin } from '../test/test-users';
import { createLinkAs } from './links.test-support';

// An import's rows count against LINKS_PER_HOUR like single creations: rows past the hour's places
// are refused with their line, and the limit holds when imports and creations run at once, on one
// instance or on two sharing a database (the count is taken in the inserting transaction).

const csvOf = (count: number, from = 0) =>
  ['title,longUrl,customUrl,tags', ...Array.from({ length: count }, (_, i) => `Fila ${from + i},https://example.com/${from + i},,`)].join('\n');

const importAs = async (app: FastifyInstance, cookie: string, csv: string) => {
  const body = await multipart({ file: { bytes: Buffer.from(csv), filename: 'links.csv', type: 'text/csv' } });
  return app.inject({ method: 'POST', url: '/api/links/import', headers: { cookie, ...sameOrigin, ...body.headers }, payload: body.payload });
};

const quotaOf = (app: FastifyInstance, cookie: string) => app.inject({ method: 'GET', url: '/api/links/quota', headers: { cookie } });

const linkCount = async (t: TestApp, cookie: string) =>
  Number((await t.app.inject({ method: 'GET', url: '/api/links?limit=1', headers: { cookie } })).json().totals.links);

describe.each(testDialects)('imports and LINKS_PER_HOUR on %s', (dialect) => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  it('refuses the rows past the hour\'s places, each with its line, and says when the next creation may be', async () => {
    const t = await createTestApp(dialect, { LINKS_PER_HOUR: '5' });
    closing.push(() => t.close());
    const { cookie } = await registerUser(t.app);
    await createLinkAs(t.app, cookie);
    await createLinkAs(t.app, cookie);
    // What the import dialog shows before the file is sent: 3 of the hour's 5 places are left.
    expect((await quotaOf(t.app, cookie)).json()).toEqual({ perHour: 5, left: 3, retryAfterSeconds: null });

    const response = await importAs(t.app, cookie, csvOf(6));
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json() as ImportResult;
    expect(result.created).toBe(3);
    expect(result.failed).toEqual([5, 6, 7].map((row) => ({ row, error: m.importRowOverQuota })));
    expect(result.overQuota).toBe(3);
    expect(result.retryAfterSeconds).toBeGreaterThan(3500);
    expect(await linkCount(t, cookie)).toBe(5);
    const after = (await quotaOf(t.app, cookie)).json();
    expect(after).toMatchObject({ perHour: 5, left: 0 });
    expect(after.retryAfterSeconds).toBeGreaterThan(3500);

    const single = await t.app.inject({ method: 'POST', url: '/api/links', headers: { cookie, ...sameOrigin }, payload: { title: 'Una más', longUrl: 'https://example.com/x' } });
    expect(single.statusCode).toBe(429);
    expect(Number(single.headers['retry-after'])).toBeGreaterThan(3500);
  });

  it('says there is no limit when LINKS_PER_HOUR is 0', async () => {
    const t = await createTestApp(dialect, { LINKS_PER_HOUR: '0' });
    closing.push(() => t.close());
    const { cookie } = await registerUser(t.app);
    expect((await quotaOf(t.app, cookie)).json()).toEqual({ perHour: null, left: null, retryAfterSeconds: null });
  });

  it('holds the limit when imports and single creations of one account run at once', async () => {
    const limit = 30;
    const a = await createTestApp(dialect, { LINKS_PER_HOUR: String(limit) });
    closing.push(() => a.close());
    const instances: FastifyInstance[] = [a.app];
    if (dialect === 'postgres') {
      // A second instance on the same schema: the count must hold across both.
      const { schema, drop } = await postgresSchema(process.env.TEST_DATABASE_URL!);
      const database = openDatabase({ kind: 'postgres', url: process.env.TEST_DATABASE_URL!, schema });
      await migrateToLatest(database.db);
      const config = { ...loadConfig({ DATA_DIR: a.config.dataDir, LOG_LEVEL: 'silent', LINKS_PER_HOUR: String(limit) }), webDir: undefined };
      const first = openDatabase({ kind: 'postgres', url: process.env.TEST_DATABASE_URL!, schema });
      const one = await buildApp({ config, database: first });
      const two = await buildApp({ config, database });
      closing.push(async () => {
        await one.close();
        await two.close();
        await first.close();
        await database.close();
        await drop();
      });
      instances.splice(0, 1, one, two);
    }
    const { cookie } = await registerUser(instances[0]!);
    const answers = await Promise.all(
      instances.flatMap((app, n) => [
        importAs(app, cookie, csvOf(25, n * 100)),
        ...Array.from({ length: 10 }, (_, i) =>
          app.inject({ method: 'POST', url: '/api/links', headers: { cookie, ...sameOrigin }, payload: { title: `Sola ${n}-${i}`, longUrl: `https://example.com/sola/${n}/${i}` } }),
        ),
      ]),
    );
    let made = 0;
    for (const answer of answers) {
      if (answer.statusCode === 200) made += (answer.json() as ImportResult).created;
      else if (answer.statusCode === 201) made += 1;
      else expect(answer.statusCode, answer.body).toBe(429);
    }
    expect(made).toBe(limit);
    const counted = await instances[0]!.inject({ method: 'GET', url: '/api/links?limit=1', headers: { cookie } });
    expect(Number(counted.json().totals.links)).toBe(limit);
  });
});
