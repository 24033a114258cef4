import { domainMessages } from '@common/domains/domain-messages';
import { importAliasRepeated, linkMessages as m } from '@common/links/link-messages';
import type { ImportResult, Link, LinkList } from '@common/links/link-schemas';
import path from 'node:path';
import { buckets } from '@common/constants';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../admin/admin-test-support';
import { insertDomain } from '../domains/domain-rows.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { multipart, sameOrigin } from '../test/test-users';
import { personalWorkspaceIdOf } from '../workspaces/personal-workspace';
import { type Person, person, team } from '../workspaces/workspaces.test-support';
import { createLocalStorage } from '../storage/local-storage';
import { decodeQr } from './links.test-support';
import { qrPng } from './qr';
import { refreshStoredQrs } from './qr-refresh';

/** A domain of the workspace, written straight into the table: its id and name. */
async function domainRow(t: TestApp, workspaceId: number, hostname: string, state: { verified?: boolean; disabled?: boolean } = {}) {
  return { id: await insertDomain(t.database.db, { workspaceId, hostname, ...state }), hostname };
}

const BASE = 'https://corto.example';

describe.each(testDialects)('links on a custom domain on %s', (dialect) => {
  let t: TestApp;
  let ana: Person;
  let go: { id: number; hostname: string };
  let promo: { id: number; hostname: string };
  beforeEach(async () => {
    t = await createTestApp(dialect, { PUBLIC_BASE_URL: BASE });
    ana = await person(t.app, 'Ana');
    const workspaceId = await personalWorkspaceIdOf(t.database.db, ana.id);
    go = await domainRow(t, workspaceId, 'go.empresa.es');
    promo = await domainRow(t, workspaceId, 'promo.empresa.es');
  });
  afterEach(async () => t.close());

  const post = (payload: Record<string, unknown>, who = ana, workspace?: string) =>
    call(t.app, who.cookie, 'POST', `/api/links${workspace ? `?workspace=${workspace}` : ''}`, { title: 'Oferta', longUrl: 'https://example.com/oferta', ...payload });
  const create = async (payload: Record<string, unknown>, who = ana, workspace?: string): Promise<Link> => {
    const response = await post(payload, who, workspace);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().link as Link;
  };
  const patch = (id: number, payload: Record<string, unknown>, who = ana, workspace?: string) =>
    call(t.app, who.cookie, 'PATCH', `/api/links/${id}${workspace ? `?workspace=${workspace}` : ''}`, payload);
  const list = async (query: string) => (await call(t.app, ana.cookie, 'GET', `/api/links?${query}`)).json() as LinkList;
  const storedQr = async (link: Link) => decodeQr((await t.app.inject({ method: 'GET', url: link.qr })).rawPayload);
  const domainRefusal = (message: string) => ({ error: expect.objectContaining({ code: 'validation', fields: { domain: [message] } }) });

  it('creates a link on a verified domain: its address and QR are https://{domain}/{alias}', async () => {
    const link = await create({ customUrl: 'oferta', domain: 'GO.Empresa.es.' });
    expect(link).toMatchObject({ domain: 'go.empresa.es', shortLink: 'https://go.empresa.es/oferta', customUrl: 'oferta' });
    expect(await storedQr(link)).toBe('https://go.empresa.es/oferta?qr=1');
    const printable = await t.app.inject({ method: 'GET', url: `/api/links/${link.id}/qr`, headers: { cookie: ana.cookie } });
    expect(await decodeQr(printable.rawPayload)).toBe('https://go.empresa.es/oferta?qr=1');
    // Read back the same way, alone or in the list; the code too when there is no alias.
    expect((await call(t.app, ana.cookie, 'GET', `/api/links/${link.id}`)).json().link).toMatchObject({ domain: 'go.empresa.es', shortLink: 'https://go.empresa.es/oferta' });
    const bare = await create({ domain: 'go.empresa.es' });
    expect(bare.shortLink).toBe(`https://go.empresa.es/${bare.shortCode}`);
    // None, blank or the instance's own host: the instance's host.
    for (const domain of [null, '', 'corto.example']) {
      const own = await create({ domain });
      expect(own).toMatchObject({ domain: null, shortLink: `${BASE}/${own.shortCode}` });
    }
    expect((await create({})).domain).toBeNull();

    // `corto qr-refresh` (PUBLIC_BASE_URL changed) draws a domain link on its domain still.
    const storage = createLocalStorage(path.join(t.config.dataDir, 'storage'));
    await storage.put(buckets.qrs, `qr-${link.shortCode}.png`, qrPng('https://otro.example/x'), 'image/png');
    expect(await storedQr(link)).toBe('https://otro.example/x');
    await refreshStoredQrs({ db: t.database.db, storage, config: { publicBaseUrl: 'https://nuevo.example' }, all: true });
    expect(await storedQr(link)).toBe('https://go.empresa.es/oferta?qr=1');
    expect(await storedQr(bare)).toBe(`https://go.empresa.es/${bare.shortCode}?qr=1`);
  });

  it('refuses a domain that is unknown, another workspace’s, not verified or disabled, in Spanish', async () => {
    const bea = await person(t.app, 'Bea');
    const beaWorkspace = await personalWorkspaceIdOf(t.database.db, bea.id);
    await domainRow(t, beaWorkspace, 'bea.example.org');
    const anaWorkspace = await personalWorkspaceIdOf(t.database.db, ana.id);
    await domainRow(t, anaWorkspace, 'pendiente.empresa.es', { verified: false });
    await domainRow(t, anaWorkspace, 'apagado.empresa.es', { disabled: true });
    const cases: Array<[string, string]> = [
      ['desconocido.es', domainMessages.unknownForLink],
      ['bea.example.org', domainMessages.unknownForLink],
      ['pendiente.empresa.es', domainMessages.notVerified],
      ['apagado.empresa.es', domainMessages.disabled],
      ['go.empresa.es/x', domainMessages.hostnameOnlyName],
    ];
    for (const [domain, message] of cases) {
      const response = await post({ domain });
      expect(response.statusCode, domain).toBe(400);
      expect(response.json(), domain).toEqual(domainRefusal(message));
    }
    expect((await post({ domain: 42 })).json().error.fields.domain).toEqual([m.domainInvalid]);
    expect(await t.database.db.selectFrom('urls').select('id').execute()).toEqual([]);
  });

  it('takes the same alias once per domain: three links on three hosts, the fourth on one of them is 409', async () => {
    const onGo = await create({ customUrl: 'Verano', domain: 'go.empresa.es' });
    const onPromo = await create({ customUrl: 'verano', domain: 'promo.empresa.es' });
    const onInstance = await create({ customUrl: 'verano' });
    expect(new Set([onGo.id, onPromo.id, onInstance.id]).size).toBe(3);
    expect([onGo.shortLink, onPromo.shortLink, onInstance.shortLink]).toEqual(['https://go.empresa.es/Verano', 'https://promo.empresa.es/verano', `${BASE}/verano`]);
    const again = await post({ customUrl: 'VERANO', domain: 'go.empresa.es' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(m.aliasTaken);
    // A short code is unique across the instance: no alias on any domain may be one.
    expect((await post({ customUrl: onGo.shortCode, domain: 'promo.empresa.es' })).statusCode).toBe(409);
  });

  it('keeps former aliases and held addresses on their domain', async () => {
    const { workspace, owner, editor } = await team(t);
    const teamDomain = await domainRow(t, workspace.id, 'equipo.empresa.es');
    const link = await create({ customUrl: 'oferta', domain: teamDomain.hostname }, owner, workspace.slug);
    const renamed = await patch(link.id, { customUrl: 'promo' }, owner, workspace.slug);
    expect(renamed.json().link).toMatchObject({ shortLink: 'https://equipo.empresa.es/promo', previousAddresses: ['oferta'] });
    // The former alias holds 'oferta' on that domain only.
    expect((await post({ customUrl: 'oferta', domain: teamDomain.hostname }, editor, workspace.slug)).statusCode).toBe(409);
    await create({ customUrl: 'oferta' }, editor, workspace.slug);
    const keys = await t.database.db.selectFrom('former_aliases').select('alias_key').execute();
    expect(keys).toEqual([{ alias_key: `${teamDomain.id}/oferta` }]);

    // Deleted: its addresses are held on its domain, for the one who deleted it.
    expect((await call(t.app, owner.cookie, 'DELETE', `/api/links/${link.id}?workspace=${workspace.slug}`)).statusCode).toBe(204);
    const held = await t.database.db.selectFrom('held_codes').select('code_key').orderBy('code_key').execute();
    expect(held.map((row) => row.code_key).sort()).toEqual([`${teamDomain.id}/${link.shortCode}`, `${teamDomain.id}/oferta`, `${teamDomain.id}/promo`].sort());
    const heldForEditor = await post({ customUrl: 'promo', domain: teamDomain.hostname }, editor, workspace.slug);
    expect(heldForEditor.statusCode).toBe(409);
    expect(heldForEditor.json().error.message).toBe(m.aliasHeld);
    // On another host the same alias is free; the owner may take hers back.
    await create({ customUrl: 'promo' }, editor, workspace.slug);
    await create({ customUrl: 'promo', domain: teamDomain.hostname }, owner, workspace.slug);
  });

  it('moves a link between domains: the alias checked there, the QR redrawn, the old address a former alias', async () => {
    const link = await create({ customUrl: 'mover', domain: 'go.empresa.es' });
    await create({ customUrl: 'ocupado', domain: 'promo.empresa.es' });
    const moved = await patch(link.id, { domain: 'Promo.Empresa.es' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().link).toMatchObject({ domain: 'promo.empresa.es', shortLink: 'https://promo.empresa.es/mover', previousAddresses: ['mover'] });
    expect(await storedQr(moved.json().link)).toBe('https://promo.empresa.es/mover?qr=1');
    const row = await t.database.db.selectFrom('urls').select(['domain_id', 'custom_url_key']).where('id', '=', link.id).executeTakeFirstOrThrow();
    expect({ domain: Number(row.domain_id), key: row.custom_url_key }).toEqual({ domain: promo.id, key: `${promo.id}/mover` });
    // The old address stays with the link on the old domain until freed.
    expect((await post({ customUrl: 'mover', domain: 'go.empresa.es' })).statusCode).toBe(409);
    expect((await call(t.app, ana.cookie, 'DELETE', `/api/links/${link.id}/addresses/mover`)).statusCode).toBe(204);
    await create({ customUrl: 'mover', domain: 'go.empresa.es' });

    // Taken on the target domain: nothing moves. A bad target: Spanish 400.
    const clash = await create({ customUrl: 'ocupado', domain: 'go.empresa.es' });
    expect((await patch(clash.id, { domain: 'promo.empresa.es' })).statusCode).toBe(409);
    expect((await patch(clash.id, { domain: 'nada.empresa.es' })).json()).toEqual(domainRefusal(domainMessages.unknownForLink));
    const still = await t.database.db.selectFrom('urls').select('domain_id').where('id', '=', clash.id).executeTakeFirstOrThrow();
    expect(Number(still.domain_id)).toBe(go.id);

    // Back to the instance's host.
    const home = await patch(clash.id, { domain: null });
    expect(home.json().link).toMatchObject({ domain: null, shortLink: `${BASE}/ocupado` });
    expect(await storedQr(home.json().link)).toBe(`${BASE}/ocupado?qr=1`);
  });

  it('filters the list by domain; the instance’s host lists the links without one, an unknown name nothing', async () => {
    const onGo = await create({ domain: 'go.empresa.es' });
    const onPromo = await create({ domain: 'promo.empresa.es' });
    const own = await create({});
    expect((await list('domain=go.empresa.es')).links.map((link) => link.id)).toEqual([onGo.id]);
    expect((await list('domain=PROMO.empresa.es')).links.map((link) => link.id)).toEqual([onPromo.id]);
    expect((await list('domain=corto.example')).links.map((link) => link.id)).toEqual([own.id]);
    expect((await list('domain=otro.example.org')).links).toEqual([]);
    expect((await list('domain=no%20es%20un%20dominio')).links).toEqual([]);
    expect((await list('')).links).toHaveLength(3);
  });

  it('imports a domain column and creates in bulk with a domain: the bad rows refused with their line', async () => {
    const csv = [
      'title,longUrl,customUrl,tags,domain',
      'Uno,https://example.com/1,uno,,go.empresa.es',
      'Dos,https://example.com/2,uno,,promo.empresa.es',
      'Tres,https://example.com/3,,,desconocido.es',
      'Cuatro,https://example.com/4,uno,,go.empresa.es',
      'Cinco,https://example.com/5,cinco,,',
    ].join('\n');
    const body = await multipart({ file: { bytes: Buffer.from(csv), filename: 'links.csv', type: 'text/csv' } });
    const imported = await t.app.inject({ method: 'POST', url: '/api/links/import', headers: { cookie: ana.cookie, ...sameOrigin, ...body.headers }, payload: body.payload });
    expect(imported.statusCode, imported.body).toBe(200);
    const result = imported.json() as ImportResult;
    expect(result.created).toBe(3);
    expect(result.failed).toEqual([
      { row: 4, error: domainMessages.unknownForLink },
      { row: 5, error: importAliasRepeated(2) },
    ]);
    const links = (await list('limit=50&order=asc')).links;
    expect(links.map((link) => link.shortLink)).toEqual(['https://go.empresa.es/uno', 'https://promo.empresa.es/uno', `${BASE}/cinco`]);
    expect(await storedQr(links[1]!)).toBe('https://promo.empresa.es/uno?qr=1');

    // The export writes the column back.
    const exported = await t.app.inject({ method: 'GET', url: '/api/links.csv', headers: { cookie: ana.cookie } });
    expect(exported.body).toContain(',go.empresa.es,https://go.empresa.es/uno,');

    const bulk = await call(t.app, ana.cookie, 'POST', '/api/links/bulk', {
      links: [
        { title: 'A', longUrl: 'https://example.com/a', customUrl: 'alfa', domain: 'go.empresa.es' },
        { title: 'B', longUrl: 'https://example.com/b', domain: 'pendiente.example' },
      ],
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const { results } = bulk.json();
    expect(results[0].link).toMatchObject({ domain: 'go.empresa.es', shortLink: 'https://go.empresa.es/alfa' });
    expect(results[1]).toEqual(domainRefusal(domainMessages.unknownForLink));
  });

  it('deletes a workspace whose domains have links: links first, then the workspace and its domains', async () => {
    const { workspace, owner } = await team(t);
    const teamDomain = await domainRow(t, workspace.id, 'equipo.empresa.es');
    const link = await create({ customUrl: 'equipo', domain: teamDomain.hostname }, owner, workspace.slug);
    expect((await patch(link.id, { customUrl: 'equipo-2' }, owner, workspace.slug)).statusCode).toBe(200);
    const deleted = await call(t.app, owner.cookie, 'DELETE', `/api/workspaces/${workspace.slug}`, { password: owner.password });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const { db } = t.database;
    expect(await db.selectFrom('urls').select('id').where('id', '=', link.id).execute()).toEqual([]);
    expect(await db.selectFrom('domains').select('id').where('id', '=', teamDomain.id).execute()).toEqual([]);
    const held = (await db.selectFrom('held_codes').select('code_key').execute()).map((row) => row.code_key).sort();
    expect(held).toEqual([`${teamDomain.id}/${link.shortCode}`, `${teamDomain.id}/equipo`, `${teamDomain.id}/equipo-2`].sort());
  });
});
