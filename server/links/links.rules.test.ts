import { adminMessages } from '@common/admin/admin-messages';
import { atRule, atVariant, linkMessages } from '@common/links/link-messages';
import type { ImportResult, Link, LinkList } from '@common/links/link-schemas';
import { ruleMessages as m } from '@common/rules/rule-messages';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, registerAdmin } from '../admin/admin-test-support';
import { insertDomain } from '../domains/domain-rows.test-support';
import { agents } from '../redirect/redirect.test-support';
import { destinationIdsOf } from '../rules/link-destinations';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { multipart, registerUser, sameOrigin } from '../test/test-users';
import { personalWorkspaceIdOf } from '../workspaces/personal-workspace';
import { createLinkAs, postLink } from './links.test-support';

// A link's rules, A/B variants and redirect status through the API, the import and export and
// the bulk creation: what is stored and read back, every bad input refused in Spanish with its
// field and nothing written, the destinations each link has had, and 'Elegir ganador'.

const BASE = 'https://corto.example';

const RULES = [
  { when: { os: ['ios'] }, url: 'https://apps.apple.com/app/corto' },
  { when: { os: ['android'] }, url: 'https://play.google.com/store/apps/details?id=corto' },
  { when: { country: ['es', ' MX '], language: ['ES'] }, url: 'https://example.com/es' },
  { when: { query: { utm_source: '*', ref: 'qr' }, from: '2026-01-01T00:00:00Z', until: '2099-01-01T00:00:00+01:00' }, url: 'https://example.com/campaña' },
];
const VARIANTS = [
  { url: 'https://example.com/a', weight: 50 },
  { url: 'https://example.com/b', weight: 30 },
  { url: 'https://example.com/c', weight: 20 },
];

describe.each(testDialects)('rules, A/B variants and the redirect status of links on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  let workspaceId: number;
  beforeEach(async () => {
    t = await createTestApp(dialect, { PUBLIC_BASE_URL: BASE, LINKS_PER_HOUR: '0' });
    const registered = await registerUser(t.app);
    cookie = registered.cookie;
    workspaceId = await personalWorkspaceIdOf(t.database.db, registered.user.id);
  });
  afterEach(async () => t?.close());

  const getLink = async (id: number): Promise<Link> => (await t.app.inject({ method: 'GET', url: `/api/links/${id}`, headers: { cookie } })).json().link;
  const patch = (id: number, payload: unknown, who = cookie) =>
    t.app.inject({ method: 'PATCH', url: `/api/links/${id}`, headers: { cookie: who, ...sameOrigin }, payload: payload as object });
  const winner = (id: number, index: string | number, who = cookie) =>
    t.app.inject({ method: 'POST', url: `/api/links/${id}/variants/${index}/winner`, headers: { cookie: who, ...sameOrigin } });
  const count = async (table: 'urls' | 'link_destinations') =>
    Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const stored = (id: number) => t.database.db.selectFrom('urls').select(['rules', 'variants', 'redirect_type', 'original_url']).where('id', '=', id).executeTakeFirstOrThrow();
  const destinations = async (id: number) =>
    (await t.database.db.selectFrom('link_destinations').select(['source', 'url']).where('url_id', '=', id).orderBy('id').execute()).map((row) => `${row.source} ${row.url}`);

  it('creates a link with rules, variants and a redirect status, stores them as JSON and reads them back in their checked form', async () => {
    const link = await createLinkAs(t.app, cookie, { title: 'App', longUrl: 'https://example.com/web', rules: RULES, variants: VARIANTS, redirectType: 307 });
    const expectedRules = [
      RULES[0],
      RULES[1],
      { when: { country: ['ES', 'MX'], language: ['es'] }, url: 'https://example.com/es' },
      { ...RULES[3], url: 'https://example.com/campa%C3%B1a' },
    ];
    expect(link).toMatchObject({ rules: expectedRules, variants: VARIANTS, redirectType: 307 });
    expect(await getLink(link.id)).toMatchObject({ rules: expectedRules, variants: VARIANTS, redirectType: 307 });
    const row = await stored(link.id);
    expect(JSON.parse(row.rules!)).toEqual(expectedRules);
    expect(JSON.parse(row.variants!)).toEqual(VARIANTS);
    expect(Number(row.redirect_type)).toBe(307);
    expect(await destinations(link.id)).toEqual([...expectedRules.map((rule) => `rule ${rule!.url}`), ...VARIANTS.map((variant) => `variant ${variant.url}`)]);
    const ids = await destinationIdsOf(t.database.db, link.id);
    expect(ids.size).toBe(7);
    expect(ids.get('variant https://example.com/b')).toEqual(expect.any(Number));

    // A plain link: nothing stored, the defaults read back; the list gives the same.
    const plain = await createLinkAs(t.app, cookie, { title: 'Plano' });
    expect(plain).toMatchObject({ rules: [], variants: null, redirectType: 302 });
    expect(await stored(plain.id)).toMatchObject({ rules: null, variants: null });
    expect(Number((await stored(plain.id)).redirect_type)).toBe(302);
    const list = (await t.app.inject({ method: 'GET', url: '/api/links', headers: { cookie } })).json() as LinkList;
    expect(list.links.find((one) => one.id === plain.id)).toMatchObject({ rules: [], variants: null, redirectType: 302 });
    expect(list.links.find((one) => one.id === link.id)).toMatchObject({ rules: expectedRules, variants: VARIANTS, redirectType: 307 });
  });

  it('edits them; the destinations a link had stay recorded; an empty list and null clear them; every such edit forgets the cached link', async () => {
    const link = await createLinkAs(t.app, cookie, { rules: RULES.slice(0, 2), variants: VARIANTS.slice(0, 2).map((v) => ({ ...v, weight: 50 })) });
    const before = await destinationIdsOf(t.database.db, link.id);
    const visit = async () => t.app.inject({ method: 'GET', url: `/${link.shortCode}`, headers: { 'user-agent': agents.desktop } });

    await visit();
    expect(t.app.appContext.linkCache.peek(link.shortCode)).toBeDefined();
    const edited = await patch(link.id, { rules: [RULES[1], RULES[2]], redirectType: 308 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().link).toMatchObject({ rules: [RULES[1], { url: 'https://example.com/es' }], redirectType: 308 });
    expect(t.app.appContext.linkCache.peek(link.shortCode)).toBeUndefined();
    // The removed rule's URL keeps its row (its old clicks name it); the kept one keeps its id.
    const after = await destinationIdsOf(t.database.db, link.id);
    expect(after.get(`rule ${RULES[0]!.url}`)).toBe(before.get(`rule ${RULES[0]!.url}`));
    expect(after.get(`rule ${RULES[1]!.url}`)).toBe(before.get(`rule ${RULES[1]!.url}`));
    expect(after.has('rule https://example.com/es')).toBe(true);

    for (const change of [{ variants: null }, { rules: [] }, { redirectType: 302 }]) {
      await visit();
      expect(t.app.appContext.linkCache.peek(link.shortCode)).toBeDefined();
      expect((await patch(link.id, change)).statusCode).toBe(200);
      expect(t.app.appContext.linkCache.peek(link.shortCode), JSON.stringify(change)).toBeUndefined();
    }
    expect(await getLink(link.id)).toMatchObject({ rules: [], variants: null, redirectType: 302 });
    expect(await stored(link.id)).toMatchObject({ rules: null, variants: null });
    expect((await destinations(link.id)).length).toBe(5);
    // An edit that does not name them leaves them as they are.
    await patch(link.id, { rules: [RULES[0]], variants: VARIANTS, redirectType: 301 });
    await patch(link.id, { title: 'Otro título' });
    expect(await getLink(link.id)).toMatchObject({ title: 'Otro título', rules: [RULES[0]], variants: VARIANTS, redirectType: 301 });
  });

  describe('bad input: a Spanish 400 naming the field, nothing stored', () => {
    const url = 'https://example.com/x';
    const manyRules = (n: number) => Array.from({ length: n }, (_, i) => ({ when: { query: { v: String(i) } }, url }));
    const cases: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
      ['a rule without conditions', { rules: [{ when: {}, url }] }, { rules: [m.ruleNeedsCondition] }],
      ['an unknown condition', { rules: [{ when: { pais: ['ES'] }, url }] }, { rules: ['Campo no admitido: pais', m.ruleNeedsCondition] }],
      ['an unknown device', { rules: [{ when: { device: ['phone'] }, url }] }, { rules: [m.deviceInvalid] }],
      ['an empty list', { rules: [{ when: { os: [] }, url }] }, { rules: [m.listEmpty] }],
      ['a rule without its URL', { rules: [{ when: { os: ['ios'] } }] }, { rules: [m.ruleUrlRequired] }],
      ['a rule URL that is no URL', { rules: [{ when: { os: ['ios'] }, url: 'ftp://example.com/' }] }, { rules: [linkMessages.longUrlProtocol] }],
      ['dates the wrong way round', { rules: [{ when: { from: '2026-02-01T00:00:00Z', until: '2026-01-01T00:00:00Z' }, url }] }, { rules: [m.datesReversed] }],
      ['an unknown country', { rules: [{ when: { country: ['ES', 'XX'] }, url }] }, { rules: [m.countryInvalid('XX')] }],
      ['an unknown language', { rules: [{ when: { language: ['xx'] }, url }] }, { rules: [m.languageInvalid('xx')] }],
      ['21 rules', { rules: manyRules(21) }, { rules: [m.tooManyRules] }],
      ['weights not summing to 100', { variants: [{ url, weight: 50 }, { url: 'https://example.com/y', weight: 40 }] }, { variants: [m.weightsSum] }],
      ['a weight that is no whole number', { variants: [{ url, weight: 50.5 }, { url, weight: 49.5 }] }, { variants: [m.weightInvalid, m.weightInvalid] }],
      ['1 variant', { variants: [{ url, weight: 100 }] }, { variants: [m.weightInvalid, m.variantsCount] }],
      ['6 variants', { variants: [20, 20, 20, 20, 10, 10].map((weight) => ({ url, weight })) }, { variants: [m.variantsCount] }],
      ['another redirect status', { redirectType: 303 }, { redirectType: [m.redirectTypeInvalid] }],
      ['a rule URL on a private address', { rules: [{ when: { os: ['ios'] }, url }, { when: { os: ['android'] }, url: 'http://192.168.1.1/' }] }, { rules: [atRule(1, linkMessages.longUrlPrivate)] }],
      ['a variant URL on localhost', { variants: [{ url, weight: 50 }, { url: 'http://localhost:8080/', weight: 50 }] }, { variants: [atVariant(1, linkMessages.longUrlPrivate)] }],
      ['a rule URL on this instance', { rules: [{ when: { os: ['ios'] }, url: `${BASE}/abc123` }] }, { rules: [atRule(0, m.loop)] }],
      ['a variant URL on this instance, another port', { variants: [{ url: 'http://CORTO.example:8080/x', weight: 50 }, { url, weight: 50 }] }, { variants: [atVariant(0, m.loop)] }],
    ];

    it.each(cases)('refuses %s on creation and on edit', async (_name, fields, expected) => {
      const link = await createLinkAs(t.app, cookie, { title: 'Base' });
      const created = await postLink(t.app, cookie, { title: 'Mal', longUrl: 'https://example.com/', ...fields });
      expect(created.statusCode, created.body).toBe(400);
      expect(created.json().error).toMatchObject({ code: 'validation', message: expect.stringMatching(/[a-záéíóúñ]{3,}/i) });
      expect(created.json().error.fields).toEqual(expected);
      const edited = await patch(link.id, { title: 'Cambiado', ...fields });
      expect(edited.statusCode, edited.body).toBe(400);
      expect(edited.json().error.fields).toEqual(expected);
      expect(await count('urls')).toBe(1);
      expect(await count('link_destinations')).toBe(0);
      expect(await getLink(link.id)).toMatchObject({ title: 'Base', rules: [], variants: null, redirectType: 302 });
    });

    it("refuses a rule URL on a domain the operator blocked, and one on a workspace's verified custom domain (a loop)", async () => {
      const admin = await registerAdmin(t);
      expect((await call(t.app, admin.cookie, 'PUT', '/api/admin/settings', { signup: 'open', blockedDomains: ['mal.example'] })).statusCode).toBe(200);
      await insertDomain(t.database.db, { hostname: 'go.empresa.example', workspaceId });
      await insertDomain(t.database.db, { hostname: 'ajeno.example' }); // another workspace's: still a short address here
      await t.app.appContext.hostedDomains.load();
      const refusals: Array<[Record<string, unknown>, Record<string, string[]>]> = [
        [{ rules: [{ when: { os: ['ios'] }, url: 'https://cdn.MAL.example/app' }] }, { rules: [atRule(0, adminMessages.domainBlocked)] }],
        [{ rules: [{ when: { os: ['ios'] }, url: 'https://example.com/' }, { when: { os: ['android'] }, url: 'https://go.empresa.example/promo' }] }, { rules: [atRule(1, m.loop)] }],
        [{ variants: [{ url: 'https://Ajeno.Example./x', weight: 10 }, { url: 'https://example.com/', weight: 90 }] }, { variants: [atVariant(0, m.loop)] }],
        // Every field's refusals at once.
        [
          { longUrl: 'http://10.0.0.1/', rules: [{ when: { os: ['ios'] }, url: 'https://mal.example/' }], variants: [{ url: 'https://go.empresa.example/', weight: 50 }, { url: 'https://example.com/', weight: 50 }] },
          { longUrl: [linkMessages.longUrlPrivate], rules: [atRule(0, adminMessages.domainBlocked)], variants: [atVariant(0, m.loop)] },
        ],
      ];
      const link = await createLinkAs(t.app, cookie, { title: 'Base' });
      for (const [fields, expected] of refusals) {
        const created = await postLink(t.app, cookie, { title: 'Mal', longUrl: 'https://example.com/', ...fields });
        expect(created.statusCode, created.body).toBe(400);
        expect(created.json().error.fields).toEqual(expected);
        const edited = await patch(link.id, fields);
        expect(edited.statusCode, edited.body).toBe(400);
        expect(edited.json().error.fields).toEqual(expected);
      }
      expect(await count('urls')).toBe(1);
      expect(await count('link_destinations')).toBe(0);
    });

    it('refuses a loop even where private destinations are allowed (an intranet)', async () => {
      await t.close();
      t = await createTestApp(dialect, { PUBLIC_BASE_URL: BASE, ALLOW_PRIVATE_DESTINATIONS: 'true' });
      ({ cookie } = await registerUser(t.app));
      const loop = await postLink(t.app, cookie, { title: 'Bucle', longUrl: 'http://wiki.internal/', rules: [{ when: { os: ['ios'] }, url: `${BASE}/x` }] });
      expect(loop.json().error.fields).toEqual({ rules: [atRule(0, m.loop)] });
      const intranet = await createLinkAs(t.app, cookie, { longUrl: 'http://wiki.internal/', rules: [{ when: { os: ['ios'] }, url: 'http://192.168.1.10/app' }] });
      expect(intranet.rules).toEqual([{ when: { os: ['ios'] }, url: 'http://192.168.1.10/app' }]);
    });
  });

  describe("'Elegir ganador'", () => {
    it("makes the chosen variant the link's destination and ends the test, recorded as an edit", async () => {
      const link = await createLinkAs(t.app, cookie, { longUrl: 'https://example.com/web', variants: VARIANTS });
      await t.app.inject({ method: 'GET', url: `/${link.shortCode}`, headers: { 'user-agent': agents.desktop } });
      expect(t.app.appContext.linkCache.peek(link.shortCode)).toBeDefined();
      const chosen = await winner(link.id, 2);
      expect(chosen.statusCode, chosen.body).toBe(200);
      expect(chosen.json().link).toMatchObject({ id: link.id, originalUrl: 'https://example.com/c', variants: null, rules: [] });
      expect(await getLink(link.id)).toMatchObject({ originalUrl: 'https://example.com/c', variants: null });
      expect(await stored(link.id)).toMatchObject({ variants: null, original_url: 'https://example.com/c' });
      expect(t.app.appContext.linkCache.peek(link.shortCode)).toBeUndefined();
      // The variants' destinations stay: their clicks keep naming them.
      expect((await destinations(link.id)).length).toBe(3);
      const activity = await t.database.db.selectFrom('workspace_activity').select(['action', 'detail']).where('workspace_id', '=', workspaceId).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(activity).toEqual({ action: 'link.edited', detail: 'longUrl, variants' });
      // The test has ended: nothing left to choose.
      const again = await winner(link.id, 0);
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toMatchObject({ code: 'conflict', message: m.noTest });
    });

    it('refuses a variant that does not exist (400), a link without a test (409) and a link of another workspace (404)', async () => {
      const link = await createLinkAs(t.app, cookie, { variants: VARIANTS.slice(1).map((v) => ({ ...v, weight: 50 })) });
      for (const index of ['2', '99', 'x', '-1', '01a']) {
        const response = await winner(link.id, index);
        expect(response.statusCode, index).toBe(400);
        expect(response.json().error).toMatchObject({ code: 'validation', message: m.winnerInvalid });
      }
      const plain = await createLinkAs(t.app, cookie, { title: 'Sin prueba' });
      expect((await winner(plain.id, 0)).json().error).toMatchObject({ code: 'conflict', message: m.noTest });
      const other = await registerUser(t.app);
      const theirs = await winner(link.id, 0, other.cookie);
      expect(theirs.statusCode).toBe(404);
      expect(await getLink(link.id)).toMatchObject({ originalUrl: 'https://example.com/a', variants: VARIANTS.slice(1).map((v) => ({ ...v, weight: 50 })) });
    });
  });

  describe('import, export and bulk', () => {
    const importFile = async (text: string, who = cookie) => {
      const body = await multipart({ file: { bytes: Buffer.from(text), filename: 'links.csv', type: 'text/csv' } });
      return t.app.inject({ method: 'POST', url: '/api/links/import', headers: { cookie: who, ...sameOrigin, ...body.headers }, payload: body.payload });
    };
    const allLinks = async (who = cookie) =>
      ((await t.app.inject({ method: 'GET', url: '/api/links?limit=200&order=asc', headers: { cookie: who } })).json() as LinkList).links;

    it('exports rules, variants and the status as JSON cells (empty for a plain link), and the file imports back as it was', async () => {
      await createLinkAs(t.app, cookie, { title: 'Con reglas', longUrl: 'https://example.com/web', rules: RULES, variants: VARIANTS, redirectType: 301 });
      await createLinkAs(t.app, cookie, { title: 'Plano' });
      await createLinkAs(t.app, cookie, { title: 'Solo 308', redirectType: 308 });
      const before = await allLinks();
      const csv = (await t.app.inject({ method: 'GET', url: '/api/links.csv', headers: { cookie } })).body;
      const records = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
      expect(JSON.parse(records[0]!.rules!)).toEqual(before[0]!.rules);
      expect(JSON.parse(records[0]!.variants!)).toEqual(VARIANTS);
      expect(records.map((record) => [record.rules === '', record.variants === '', record.redirect_type])).toEqual([
        [false, false, '301'],
        [true, true, ''],
        [true, true, '308'],
      ]);

      const other = await registerUser(t.app);
      const imported = await importFile(csv, other.cookie);
      expect(imported.json()).toEqual({ created: 3, failed: [], overQuota: 0, retryAfterSeconds: null } satisfies ImportResult);
      const shape = (links: Link[]) => links.map(({ title, originalUrl, rules, variants, redirectType }) => ({ title, originalUrl, rules, variants, redirectType }));
      const after = await allLinks(other.cookie);
      expect(shape(after)).toEqual(shape(before));
      expect(await destinations(after[0]!.id)).toEqual(await destinations(before[0]!.id));
      expect(await destinations(after[1]!.id)).toEqual([]);
    });

    it('refuses each row with bad JSON, bad rules or a refused URL, with its line and the Spanish reason', async () => {
      const cell = (value: unknown) => `"${JSON.stringify(value).replace(/"/g, '""')}"`;
      const rows = [
        'title,longUrl,rules,variants,redirect_type',
        `Buena,https://example.com/1,${cell([{ when: { os: ['ios'] }, url: 'https://example.com/ios' }])},,307`,
        'JSON roto,https://example.com/2,"[{""when"":",,',
        'Variantes rotas,https://example.com/3,,{no,',
        `País,https://example.com/4,${cell([{ when: { country: ['XX'] }, url: 'https://example.com/x' }])},,`,
        `Pesos,https://example.com/5,,${cell([{ url: 'https://example.com/a', weight: 60 }, { url: 'https://example.com/b', weight: 60 }])},`,
        `Bucle,https://example.com/6,${cell([{ when: { os: ['ios'] }, url: `${BASE}/abc` }])},,`,
        'Estado,https://example.com/7,,,303',
      ];
      const response = await importFile(rows.join('\n'));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        created: 1,
        failed: [
          { row: 3, error: linkMessages.importRulesJson },
          { row: 4, error: linkMessages.importVariantsJson },
          { row: 5, error: m.countryInvalid('XX') },
          { row: 6, error: m.weightsSum },
          { row: 7, error: atRule(0, m.loop) },
          { row: 8, error: m.redirectTypeInvalid },
        ],
        overQuota: 0,
        retryAfterSeconds: null,
      });
      const [made] = await allLinks();
      expect(made).toMatchObject({ title: 'Buena', rules: [{ when: { os: ['ios'] }, url: 'https://example.com/ios' }], variants: null, redirectType: 307 });
      expect(await destinations(made!.id)).toEqual(['rule https://example.com/ios']);
    });

    it('bulk creation takes the fields in each body, and refuses a bad one on its own', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/links/bulk',
        headers: { cookie, ...sameOrigin },
        payload: {
          links: [
            { title: 'Uno', longUrl: 'https://example.com/1', rules: RULES.slice(0, 1), redirectType: 308 },
            { title: 'Dos', longUrl: 'https://example.com/2', variants: [{ url: 'https://example.com/a', weight: 100 }] },
            { title: 'Tres', longUrl: 'https://example.com/3', variants: [{ url: `${BASE}/x`, weight: 50 }, { url: 'https://example.com/b', weight: 50 }] },
            { title: 'Cuatro', longUrl: 'https://example.com/4', variants: VARIANTS },
          ],
        },
      });
      expect(response.statusCode, response.body).toBe(200);
      const results = response.json().results;
      expect(results[0].link).toMatchObject({ title: 'Uno', rules: RULES.slice(0, 1), variants: null, redirectType: 308 });
      expect(results[1].error).toMatchObject({ code: 'validation', fields: { variants: [m.weightInvalid, m.variantsCount] } });
      expect(results[2].error).toMatchObject({ code: 'validation', fields: { variants: [atVariant(0, m.loop)] } });
      expect(results[3].link).toMatchObject({ title: 'Cuatro', variants: VARIANTS });
      expect(await count('urls')).toBe(2);
      expect(await count('link_destinations')).toBe(4);
    });
  });

  it('the OpenAPI document lists the new fields and the winner route', async () => {
    type Schema = { properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; $ref?: string };
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { summary?: string; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
    };
    const bodyOf = (path: string, method: string) => doc.paths[path]![method]!.requestBody!.content['application/json']!.schema;
    expect(Object.keys(bodyOf('/api/links', 'post').properties!)).toEqual(expect.arrayContaining(['rules', 'variants', 'redirectType']));
    expect(Object.keys(bodyOf('/api/links/{id}', 'patch').properties!)).toEqual(expect.arrayContaining(['rules', 'variants', 'redirectType']));
    const rule = bodyOf('/api/links', 'post').properties!.rules!;
    expect(JSON.stringify(rule)).toContain('"country"');
    const answer = doc.paths['/api/links/{id}']!.get!.responses['200']!.content!['application/json']!.schema;
    expect(Object.keys(answer.properties!.link!.properties!)).toEqual(expect.arrayContaining(['rules', 'variants', 'redirectType']));
    const choose = doc.paths['/api/links/{id}/variants/{index}/winner']!.post!;
    expect(choose.summary).toMatch(/ganadora/);
    expect(Object.keys(choose.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '409']));
  });
});
