import { apiErrorSchema } from '@common/api-error';
import type { Link } from '@common/links/link-schemas';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { createTokenAs } from '../tokens/tokens.test-support';
import { agents } from '../redirect/redirect.test-support';
import { injectUntilFirstChunk } from '../test/inject-stream';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { makeImage, multipart, registerUser, sameOrigin, sessionCookie } from '../test/test-users';
import { apiRouteKeys } from './registered-routes';
import { addTeamWorkspace } from '../workspaces/workspaces.test-support';
import { workspaceMessages } from '@common/workspaces/workspace-messages';
import { mcpMessages } from '@common/mcp/mcp-messages';
// Workspace block: the workspace routes have a matrix of their own, with a column per role.
import { coveredByWorkspaceMatrix } from './workspace-access-routes';

// Every /api route, called as an anonymous visitor, as someone with a forged session cookie, as
// another signed-in user and as the owner of the data. The table below is checked against the
// routes the app really registers: a new /api route without a row here fails the first test.

type Caller = 'anonymous' | 'forged' | 'other' | 'owner';
// The owner goes last, so DELETE is tried by the others while the link still exists.
const callers: Caller[] = ['anonymous', 'forged', 'other', 'owner'];

interface Actor {
  cookie: string;
  email: string;
  password: string;
  id: number;
}

interface World {
  t: TestApp;
  owner: Actor;
  other: Actor;
  ownerLink: Link;
  ownerLinkToDelete: Link;
  /** Strings that belong to the owner alone: none may appear in an answer to anyone else. */
  ownerSecrets: string[];
}

interface Entry {
  /** private: needs a session (401 without one); public: anyone may call it. */
  access: 'public' | 'private';
  /** The status each caller must get. */
  status: Record<Caller, number>;
  request(world: World, caller: Caller, cookie: string | undefined): Promise<InjectOptions> | InjectOptions;
  /** Further checks on an answer, e.g. that the right user's data came back. */
  check?(world: World, caller: Caller, response: LightMyRequestResponse): Promise<void> | void;
}

const FORGED_COOKIE = 'corto_session=Zm9yZ2VkLXNlc3Npb24tdG9rZW4tdGhhdC13YXMtbmV2ZXItaXNzdWVk';
const publicPage = (url: string): Entry => ({
  access: 'public',
  status: { anonymous: 200, forged: 200, other: 200, owner: 200 },
  request: () => ({ method: 'GET', url }),
});
const ownerOnly = { anonymous: 401, forged: 401, other: 404, owner: 200 };

// Live feed block: its answer is a stream that lasts as long as the watcher, so it is read up to
// its first event (the "connected" comment) and let go; refusals are read whole.
const STREAMING_ROUTES = new Set(['GET /api/links/:id/live', 'HEAD /api/links/:id/live']);
function injectRoute(app: TestApp['app'], key: string, options: InjectOptions): Promise<LightMyRequestResponse> {
  return STREAMING_ROUTES.has(key) ? injectUntilFirstChunk(app, options) : app.inject(options);
}

const anyUser = { anonymous: 401, forged: 401, other: 200, owner: 200 };
// The owner is also the install's admin; the other user is not.
const adminOnly = { anonymous: 401, forged: 401, other: 403, owner: 200 };

/** An account of its own for an admin action to act on, so the matrix's actors stay as they are. */
async function victim({ t }: World): Promise<{ id: number; cookie: string }> {
  counter += 1;
  const { user, cookie } = await registerUser(t.app, { email: `victima-${counter}-${Date.now()}@corto.test` });
  return { id: user.id, cookie };
}

const adminRequest =
  (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: (world: World) => string | Promise<string>, payload?: Record<string, unknown>) =>
  async (world: World, _caller: Caller, cookie: string | undefined): Promise<InjectOptions> => ({
    method,
    url: await url(world),
    headers: cookie ? { cookie } : {},
    ...(payload ? { payload } : {}),
  });
let counter = 0;
/** The session the last logout call ended. */
let loggedOut: string | undefined;

const matrix: Record<string, Entry> = {
  'GET /api/signup': {
    access: 'public',
    status: { anonymous: 200, forged: 200, other: 200, owner: 200 },
    request: () => ({ method: 'GET', url: '/api/signup' }),
    check: (_world, _caller, response) => expect(response.json()).toEqual({ signup: 'open' }),
  },
  // MCP takes a token only (server/mcp/mcp.test.ts drives it with tokens): a session alone, even the owner's, is 401.
  'POST /api/mcp': {
    access: 'private',
    status: { anonymous: 401, forged: 401, other: 401, owner: 401 },
    request: (_world, _caller, cookie) => ({
      method: 'POST',
      url: '/api/mcp',
      headers: cookie ? { cookie } : {},
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_links', arguments: {} } },
    }),
    check: (_world, _caller, response) => expect(response.json().error.message).toBe(mcpMessages.tokenRequired),
  },
  // Its stateless server has no stream to open nor session to end, whoever asks.
  'GET /api/mcp': {
    access: 'public',
    status: { anonymous: 405, forged: 405, other: 405, owner: 405 },
    request: (_world, _caller, cookie) => ({ method: 'GET', url: '/api/mcp', headers: cookie ? { cookie } : {} }),
  },
  'DELETE /api/mcp': {
    access: 'public',
    status: { anonymous: 405, forged: 405, other: 405, owner: 405 },
    request: (_world, _caller, cookie) => ({ method: 'DELETE', url: '/api/mcp', headers: cookie ? { cookie } : {} }),
  },
  'POST /api/reports': {
    access: 'public',
    status: { anonymous: 202, forged: 202, other: 202, owner: 202 },
    request: ({ ownerLink }, caller) => ({
      method: 'POST',
      url: '/api/reports',
      remoteAddress: `198.51.100.${callers.indexOf(caller) + 20}`,
      payload: { address: ownerLink.shortLink, reason: 'Spam' },
    }),
  },
  'GET /api/admin/users': {
    access: 'private',
    status: adminOnly,
    request: adminRequest('GET', () => '/api/admin/users?q=zafiro'),
    check({ owner }, caller, response) {
      if (caller === 'owner') expect(response.json().users.map((u: { id: number }) => u.id)).toEqual([owner.id]);
    },
  },
  'PATCH /api/admin/users/:id': {
    access: 'private',
    status: adminOnly,
    request: adminRequest('PATCH', async (world) => `/api/admin/users/${(await victim(world)).id}`, { role: 'admin' }),
    check: (_world, caller, response) => {
      if (caller === 'owner') expect(response.json().user.role).toBe('admin');
    },
  },
  'DELETE /api/admin/users/:id': {
    access: 'private',
    status: { anonymous: 401, forged: 401, other: 403, owner: 204 },
    request: adminRequest('DELETE', async (world) => `/api/admin/users/${(await victim(world)).id}`),
  },
  'GET /api/admin/links': {
    access: 'private',
    status: adminOnly,
    request: adminRequest('GET', () => '/api/admin/links?q=zafiro'),
  },
  'PATCH /api/admin/links/:id': {
    access: 'private',
    status: adminOnly,
    // Enabling a link that is not disabled: the owner's link stays as it was for the other rows.
    request: adminRequest('PATCH', ({ ownerLink }) => `/api/admin/links/${ownerLink.id}`, { disabled: false }),
  },
  'GET /api/admin/reports': {
    access: 'private',
    status: adminOnly,
    request: adminRequest('GET', () => '/api/admin/reports'),
  },
  'GET /api/admin/reports/count': {
    access: 'private',
    status: adminOnly,
    request: adminRequest('GET', () => '/api/admin/reports/count'),
  },
  'PATCH /api/admin/reports/:id': {
    access: 'private',
    status: adminOnly,
    request: adminRequest(
      'PATCH',
      async ({ t }) => {
        const report = await t.database.db
          .insertInto('reports')
          .values({ reported_link: 'zafiro', url_id: null, reason: 'Spam', email: null, created_at: Date.now(), resolved_at: null })
          .returning('id')
          .executeTakeFirstOrThrow();
        return `/api/admin/reports/${report.id}`;
      },
      { state: 'dismissed' },
    ),
    check: (_world, caller, response) => {
      if (caller === 'owner') expect(response.json().report.state).toBe('dismissed');
    },
  },
  'POST /api/admin/invites': {
    access: 'private',
    status: { anonymous: 401, forged: 401, other: 403, owner: 201 },
    request: adminRequest('POST', () => '/api/admin/invites', {}),
  },
  'GET /api/admin/settings': {
    access: 'private',
    status: adminOnly,
    request: adminRequest('GET', () => '/api/admin/settings'),
  },
  'PUT /api/admin/settings': {
    access: 'private',
    status: adminOnly,
    request: adminRequest('PUT', () => '/api/admin/settings', { signup: 'open', blockedDomains: [] }),
  },
  'GET /api/admin/audit': {
    access: 'private',
    status: adminOnly,
    request: adminRequest('GET', () => '/api/admin/audit'),
  },
  'GET /api/health': {
    access: 'public',
    status: { anonymous: 200, forged: 200, other: 200, owner: 200 },
    request: () => ({ method: 'GET', url: '/api/health' }),
  },
  'GET /api/health/ready': {
    access: 'public',
    status: { anonymous: 200, forged: 200, other: 200, owner: 200 },
    request: () => ({ method: 'GET', url: '/api/health/ready' }),
  },
  'POST /api/auth/register': {
    access: 'public',
    status: { anonymous: 201, forged: 201, other: 201, owner: 201 },
    async request(_world, caller) {
      counter += 1;
      const body = await multipart({
        name: `Nueva ${caller}`,
        email: `nueva-${caller}-${counter}-${Date.now()}@corto.test`,
        password: 'otra-clave-123',
        profileImage: { bytes: await makeImage(), filename: 'a.png', type: 'image/png' },
      });
      return { method: 'POST', url: '/api/auth/register', ...body };
    },
    check(_world, caller, response) {
      expect(response.json().user.name).toBe(`Nueva ${caller}`);
    },
  },
  'POST /api/auth/login': {
    access: 'public',
    // Without an account of their own, the anonymous and forged callers try the owner's e-mail with a guess.
    status: { anonymous: 401, forged: 401, other: 200, owner: 200 },
    request({ owner, other }, caller) {
      const who = caller === 'other' ? other : owner;
      const password = caller === 'other' || caller === 'owner' ? who.password : 'adivinanza-1';
      return { method: 'POST', url: '/api/auth/login', payload: { email: who.email, password } };
    },
    check({ owner, other }, caller, response) {
      if (caller === 'other') expect(response.json().user.id).toBe(other.id);
      if (caller === 'owner') expect(response.json().user.id).toBe(owner.id);
    },
  },
  'POST /api/auth/logout': {
    access: 'public',
    status: { anonymous: 204, forged: 204, other: 204, owner: 204 },
    // A session of its own, so the matrix's sessions stay valid; afterwards that one is over.
    async request({ t, owner, other }, caller, cookie) {
      loggedOut = undefined;
      if (caller !== 'other' && caller !== 'owner') return { method: 'POST', url: '/api/auth/logout', headers: cookie ? { cookie } : {} };
      const who = caller === 'other' ? other : owner;
      const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: who.email, password: who.password } });
      loggedOut = sessionCookie(login);
      return { method: 'POST', url: '/api/auth/logout', headers: { cookie: loggedOut } };
    },
    async check({ t, owner }) {
      if (loggedOut) {
        const after = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: loggedOut } });
        expect(after.json(), 'the session that logged out still works').toEqual({ user: null });
      }
      // Nobody's logout ends the owner's own session.
      const still = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: owner.cookie } });
      expect(still.json().user?.id).toBe(owner.id);
    },
  },
  'GET /api/auth/session': {
    // Anyone may ask who is signed in; nobody (or a forged cookie) is { user: null }, not an error.
    access: 'public',
    status: { anonymous: 200, forged: 200, other: 200, owner: 200 },
    request: (_world, _caller, cookie) => ({ method: 'GET', url: '/api/auth/session', headers: cookie ? { cookie } : {} }),
    check({ owner, other }, caller, response) {
      if (caller === 'owner' || caller === 'other') {
        expect(response.json().user.id).toBe((caller === 'owner' ? owner : other).id);
      } else {
        expect(response.json()).toEqual({ user: null });
      }
    },
  },
  'GET /api/links': {
    access: 'private',
    status: anyUser,
    request: (_world, _caller, cookie) => ({ method: 'GET', url: '/api/links', headers: cookie ? { cookie } : {} }),
    check({ ownerLink }, caller, response) {
      if (response.statusCode !== 200) return;
      const ids = (response.json().links as Link[]).map((link) => link.id);
      if (caller === 'owner') expect(ids).toContain(ownerLink.id);
      if (caller === 'other') expect(ids).not.toContain(ownerLink.id);
    },
  },
  'GET /api/tags': {
    access: 'private',
    status: anyUser,
    request: (_world, _caller, cookie) => ({ method: 'GET', url: '/api/tags', headers: cookie ? { cookie } : {} }),
    check(_world, caller, response) {
      if (response.statusCode !== 200) return;
      const names = (response.json().tags as { name: string }[]).map((tag) => tag.name);
      expect(names.includes('etiqueta-zafiro'), `${caller} sees the owner's tag`).toBe(caller === 'owner');
    },
  },
  'GET /api/links.csv': {
    access: 'private',
    status: anyUser,
    request: (_world, _caller, cookie) => ({ method: 'GET', url: '/api/links.csv', headers: cookie ? { cookie } : {} }),
    check({ ownerLink }, caller, response) {
      if (response.statusCode !== 200) return;
      expect(response.body.includes(ownerLink.title), `${caller} sees the owner's link`).toBe(caller === 'owner');
    },
  },
  'POST /api/links/bulk': {
    access: 'private',
    status: anyUser,
    request: (_world, caller, cookie) => ({
      method: 'POST',
      url: '/api/links/bulk',
      headers: cookie ? { cookie, ...sameOrigin } : {},
      payload: { links: [{ title: `Lote de ${caller}`, longUrl: 'https://example.com/lote' }] },
    }),
    check(_world, caller, response) {
      if (response.statusCode === 200) expect(response.json().results[0].link.title).toBe(`Lote de ${caller}`);
    },
  },
  'GET /api/links/quota': {
    access: 'private',
    status: anyUser,
    request: (_world, _caller, cookie) => ({ method: 'GET', url: '/api/links/quota', headers: cookie ? { cookie } : {} }),
  },
  'GET /api/links/import/progress': {
    access: 'private',
    status: anyUser,
    request: (_world, _caller, cookie) => ({ method: 'GET', url: '/api/links/import/progress', headers: cookie ? { cookie } : {} }),
  },
  'POST /api/links/bulk-update': {
    access: 'private',
    status: anyUser,
    request: ({ ownerLink }, _caller, cookie) => ({
      method: 'POST',
      url: '/api/links/bulk-update',
      headers: cookie ? { cookie, ...sameOrigin } : {},
      payload: { ids: [ownerLink.id], changes: { addTags: ['etiqueta-zafiro'] } },
    }),
    check(_world, caller, response) {
      // Someone else's id counts as not found: nothing changes.
      if (response.statusCode === 200) expect(response.json().updated).toBe(caller === 'owner' ? 1 : 0);
    },
  },
  'POST /api/links/bulk-delete': {
    access: 'private',
    status: anyUser,
    async request({ t, owner }, _caller, cookie) {
      const link = await createLinkAs(t.app, owner.cookie, { title: 'Para borrar en lote' });
      return { method: 'POST', url: '/api/links/bulk-delete', headers: cookie ? { cookie, ...sameOrigin } : {}, payload: { ids: [link.id] } };
    },
    check(_world, caller, response) {
      if (response.statusCode === 200) expect(response.json().deleted).toBe(caller === 'owner' ? 1 : 0);
    },
  },
  'POST /api/links/import': {
    access: 'private',
    status: anyUser,
    async request(_world, caller, cookie) {
      const body = await multipart({ file: { bytes: Buffer.from(`title,longUrl\nImportado por ${caller},https://example.com/i\n`), filename: 'l.csv', type: 'text/csv' } });
      return { method: 'POST', url: '/api/links/import', headers: { ...(cookie ? { cookie, ...sameOrigin } : {}), ...body.headers }, payload: body.payload };
    },
    check(_world, _caller, response) {
      if (response.statusCode === 200) expect(response.json()).toMatchObject({ created: 1, failed: [] });
    },
  },
  'POST /api/links': {
    access: 'private',
    status: { anonymous: 401, forged: 401, other: 201, owner: 201 },
    request: (_world, caller, cookie) => ({
      method: 'POST',
      url: '/api/links',
      headers: cookie ? { cookie } : {},
      payload: { title: `Creado por ${caller}`, longUrl: 'https://example.com/creado' },
    }),
    async check({ t, owner, other }, caller, response) {
      const rows = await t.database.db.selectFrom('urls').select('user_id').where('title', '=', `Creado por ${caller}`).execute();
      if (caller === 'anonymous' || caller === 'forged') expect(rows).toEqual([]);
      else expect(rows.map((row) => Number(row.user_id))).toEqual([(caller === 'owner' ? owner : other).id]);
      if (response.statusCode === 201) expect(response.json().link.title).toBe(`Creado por ${caller}`);
    },
  },
  'GET /api/links/:id': {
    access: 'private',
    status: ownerOnly,
    request: ({ ownerLink }, _caller, cookie) => ({ method: 'GET', url: `/api/links/${ownerLink.id}`, headers: cookie ? { cookie } : {} }),
    check({ ownerLink }, caller, response) {
      if (caller === 'owner') expect(response.json().link).toEqual({ ...ownerLink, clicks: 1 });
    },
  },
  'PATCH /api/links/:id': {
    access: 'private',
    status: ownerOnly,
    request: ({ ownerLinkToDelete }, caller, cookie) => ({
      method: 'PATCH',
      url: `/api/links/${ownerLinkToDelete.id}`,
      headers: cookie ? { cookie } : {},
      payload: { title: `Cambiado por ${caller}` },
    }),
    async check({ t, ownerLinkToDelete }, caller) {
      const row = await t.database.db.selectFrom('urls').select('title').where('id', '=', ownerLinkToDelete.id).executeTakeFirstOrThrow();
      expect(row.title === `Cambiado por ${caller}`, `title after ${caller}'s PATCH`).toBe(caller === 'owner');
    },
  },
  'POST /api/links/:id/variants/:index/winner': {
    access: 'private',
    status: ownerOnly,
    // A fresh A/B test of the owner's for each caller: choosing a winner ends it.
    async request({ t, owner }, _caller, cookie) {
      const made = await t.app.inject({
        method: 'POST',
        url: '/api/links',
        headers: { cookie: owner.cookie, ...sameOrigin },
        payload: { title: 'Prueba A/B', longUrl: 'https://example.com/ab', variants: [{ url: 'https://example.com/a', weight: 50 }, { url: 'https://example.com/b', weight: 50 }] },
      });
      return { method: 'POST', url: `/api/links/${(made.json() as { link: Link }).link.id}/variants/1/winner`, headers: cookie ? { cookie } : {} };
    },
    check(_world, caller, response) {
      if (caller === 'owner') expect(response.json().link).toMatchObject({ originalUrl: 'https://example.com/b', variants: null });
    },
  },
  'DELETE /api/links/:id/addresses/:address': {
    access: 'private',
    status: { anonymous: 401, forged: 401, other: 404, owner: 204 },
    request: ({ ownerLinkToDelete }, _caller, cookie) => ({
      method: 'DELETE',
      url: `/api/links/${ownerLinkToDelete.id}/addresses/borrador-zafiro`,
      headers: cookie ? { cookie } : {},
    }),
    async check({ t }, caller) {
      const row = await t.database.db.selectFrom('former_aliases').select('alias').where('alias_key', '=', 'borrador-zafiro').executeTakeFirst();
      expect(Boolean(row), `former alias still there after ${caller}'s DELETE`).toBe(caller !== 'owner');
    },
  },
  'DELETE /api/links/:id': {
    access: 'private',
    status: { anonymous: 401, forged: 401, other: 404, owner: 204 },
    request: ({ ownerLinkToDelete }, _caller, cookie) => ({
      method: 'DELETE',
      url: `/api/links/${ownerLinkToDelete.id}`,
      headers: cookie ? { cookie } : {},
    }),
    async check({ t, ownerLinkToDelete }, caller) {
      const row = await t.database.db.selectFrom('urls').select('id').where('id', '=', ownerLinkToDelete.id).executeTakeFirst();
      expect(Boolean(row), `link still there after ${caller}'s DELETE`).toBe(caller !== 'owner');
    },
  },
  'GET /api/links/:id/stats': {
    access: 'private',
    status: ownerOnly,
    request: ({ ownerLink }, _caller, cookie) => ({
      method: 'GET',
      url: `/api/links/${ownerLink.id}/stats`,
      headers: cookie ? { cookie } : {},
    }),
    check(_world, caller, response) {
      if (caller === 'owner') expect(response.json().total).toBeGreaterThanOrEqual(1);
    },
  },
  'GET /api/links/:id/qr': {
    access: 'private',
    status: ownerOnly,
    request: ({ ownerLink }, _caller, cookie) => ({
      method: 'GET',
      url: `/api/links/${ownerLink.id}/qr?format=svg`,
      headers: cookie ? { cookie } : {},
    }),
    check(_world, caller, response) {
      if (caller === 'owner') expect(response.body).toMatch(/^<svg /);
    },
  },
  'PUT /api/links/:id/preview-image': {
    access: 'private',
    status: ownerOnly,
    // A fresh link of the owner's for each caller, so the shared ones stay as the other rows expect.
    async request({ t, owner }, caller, cookie) {
      const link = await createLinkAs(t.app, owner.cookie, { title: `Vista previa de ${caller}` });
      const body = await multipart({ image: { bytes: await makeImage('png', 120, 63), filename: 'v.png', type: 'image/png' } });
      return { method: 'PUT', url: `/api/links/${link.id}/preview-image`, headers: { ...(cookie ? { cookie } : {}), ...body.headers }, payload: body.payload };
    },
    async check({ t }, caller) {
      const row = await t.database.db.selectFrom('urls').select('preview_image_key').where('title', '=', `Vista previa de ${caller}`).executeTakeFirstOrThrow();
      expect(row.preview_image_key !== null, `preview image after ${caller}'s PUT`).toBe(caller === 'owner');
    },
  },
  'DELETE /api/links/:id/preview-image': {
    access: 'private',
    status: ownerOnly,
    async request({ t, owner }, caller, cookie) {
      const link = await createLinkAs(t.app, owner.cookie, { title: `Sin vista previa por ${caller}` });
      const body = await multipart({ image: { bytes: await makeImage('png', 120, 63), filename: 'v.png', type: 'image/png' } });
      await t.app.inject({ method: 'PUT', url: `/api/links/${link.id}/preview-image`, headers: { cookie: owner.cookie, ...sameOrigin, ...body.headers }, payload: body.payload });
      return { method: 'DELETE', url: `/api/links/${link.id}/preview-image`, headers: cookie ? { cookie } : {} };
    },
    async check({ t }, caller) {
      const row = await t.database.db.selectFrom('urls').select('preview_image_key').where('title', '=', `Sin vista previa por ${caller}`).executeTakeFirstOrThrow();
      expect(row.preview_image_key === null, `preview image gone after ${caller}'s DELETE`).toBe(caller === 'owner');
    },
  },
  'GET /api/links/:id/clicks.csv': {
    access: 'private',
    status: ownerOnly,
    request: ({ ownerLink }, _caller, cookie) => ({
      method: 'GET',
      url: `/api/links/${ownerLink.id}/clicks.csv`,
      headers: cookie ? { cookie } : {},
    }),
    check(_world, caller, response) {
      if (caller === 'owner') expect(response.body.trim().split('\n').length).toBeGreaterThanOrEqual(2);
    },
  },
  // Live feed block.
  'GET /api/links/:id/live': {
    access: 'private',
    status: ownerOnly,
    request: ({ ownerLink }, _caller, cookie) => ({
      method: 'GET',
      url: `/api/links/${ownerLink.id}/live`,
      headers: cookie ? { cookie } : {},
    }),
    check(_world, caller, response) {
      if (caller === 'owner') expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    },
  },
  'GET /api/tokens': {
    access: 'private',
    status: anyUser,
    request: (_world, _caller, cookie) => ({ method: 'GET', url: '/api/tokens', headers: cookie ? { cookie } : {} }),
    async check(world, caller, response) {
      if (response.statusCode !== 200 || (caller !== 'owner' && caller !== 'other')) return;
      const ownerToken = await createTokenAs(world.t.app, world.owner.cookie, { name: `De Zafiro ${caller}` });
      const again = await world.t.app.inject({ method: 'GET', url: '/api/tokens', headers: { cookie: world[caller].cookie } });
      const ids = (again.json().tokens as Array<{ id: number }>).map((token) => token.id);
      expect(ids.includes(ownerToken.token.id)).toBe(caller === 'owner');
    },
  },
  'POST /api/tokens': {
    access: 'private',
    status: { anonymous: 401, forged: 401, other: 201, owner: 201 },
    request: (_world, caller, cookie) => ({
      method: 'POST',
      url: '/api/tokens',
      headers: cookie ? { cookie } : {},
      payload: { name: `Token de ${caller}`, scope: 'read' },
    }),
    async check({ t, owner, other }, caller) {
      const rows = await t.database.db.selectFrom('api_tokens').select('user_id').where('name', '=', `Token de ${caller}`).execute();
      if (caller === 'anonymous' || caller === 'forged') expect(rows).toEqual([]);
      else expect(rows.map((row) => Number(row.user_id))).toEqual([(caller === 'owner' ? owner : other).id]);
    },
  },
  'DELETE /api/tokens/:id': {
    access: 'private',
    status: { anonymous: 401, forged: 401, other: 404, owner: 204 },
    async request({ t, owner }, caller, cookie) {
      const { token } = await createTokenAs(t.app, owner.cookie, { name: `Para borrar por ${caller}` });
      return { method: 'DELETE', url: `/api/tokens/${token.id}`, headers: cookie ? { cookie } : {} };
    },
    async check({ t }, caller) {
      const row = await t.database.db.selectFrom('api_tokens').select('id').where('name', '=', `Para borrar por ${caller}`).executeTakeFirst();
      expect(Boolean(row), `token still there after ${caller}'s DELETE`).toBe(caller !== 'owner');
    },
  },
  'DELETE /api/tokens': {
    access: 'private',
    status: { anonymous: 401, forged: 401, other: 200, owner: 200 },
    async request({ t, owner }, caller, cookie) {
      // The owner holds a token each time: only the owner's own call may end it.
      await createTokenAs(t.app, owner.cookie, { name: `Del dueño ante ${caller}` });
      return { method: 'DELETE', url: '/api/tokens', headers: cookie ? { cookie } : {} };
    },
    async check({ t, owner }, caller) {
      const left = await t.database.db.selectFrom('api_tokens').select('id').where('user_id', '=', owner.id).execute();
      expect(left.length > 0, `the owner's tokens after ${caller}'s DELETE`).toBe(caller !== 'owner');
    },
  },
  'GET /api/openapi.json': publicPage('/api/openapi.json'),
  // The reference page and its stylesheet (server/openapi/reference-page.ts).
  'GET /api/docs': publicPage('/api/docs'),
  'GET /api/docs/': publicPage('/api/docs/'),
  'GET /api/docs/referencia.css': publicPage('/api/docs/referencia.css'),
  'PATCH /api/account': {
    access: 'private',
    status: anyUser,
    request: (_world, caller, cookie) => ({ method: 'PATCH', url: '/api/account', headers: cookie ? { cookie } : {}, payload: { name: `Nombre de ${caller}` } }),
    async check({ t, owner, other }, caller) {
      const rows = await t.database.db.selectFrom('users').select('id').where('name', '=', `Nombre de ${caller}`).execute();
      if (caller === 'anonymous' || caller === 'forged') expect(rows).toEqual([]);
      else expect(rows.map((row) => Number(row.id))).toEqual([(caller === 'owner' ? owner : other).id]);
    },
  },
  'PUT /api/account/picture': {
    access: 'private',
    status: anyUser,
    async request(_world, _caller, cookie) {
      const body = await multipart({ profileImage: { bytes: await makeImage(), filename: 'a.png', type: 'image/png' } });
      return { method: 'PUT', url: '/api/account/picture', ...body, headers: { ...body.headers, ...(cookie ? { cookie } : {}) } };
    },
    check({ owner, other }, caller, response) {
      if (caller === 'owner' || caller === 'other') expect(response.json().user.id).toBe((caller === 'owner' ? owner : other).id);
    },
  },
  'POST /api/account/email': {
    access: 'private',
    // The other user asks for the owner's address: refused as taken; the owner confirms their own.
    status: { anonymous: 401, forged: 401, other: 409, owner: 200 },
    request: ({ owner, other }, caller, cookie) => ({
      method: 'POST',
      url: '/api/account/email',
      headers: cookie ? { cookie } : {},
      payload: { email: owner.email, password: caller === 'other' ? other.password : owner.password },
    }),
  },
  'POST /api/account/password': {
    access: 'private',
    // Each signed-in caller sets the password it already has, so the matrix's logins still work.
    status: { anonymous: 401, forged: 401, other: 204, owner: 204 },
    request: ({ owner, other }, caller, cookie) => {
      const who = caller === 'other' ? other : owner;
      return { method: 'POST', url: '/api/account/password', headers: cookie ? { cookie } : {}, payload: { currentPassword: who.password, newPassword: who.password } };
    },
  },
  'GET /api/account/sessions': {
    access: 'private',
    status: anyUser,
    request: (_world, _caller, cookie) => ({ method: 'GET', url: '/api/account/sessions', headers: cookie ? { cookie } : {} }),
    check(_world, caller, response) {
      if (caller === 'owner' || caller === 'other') expect(response.json().sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    },
  },
  'DELETE /api/account/sessions': {
    access: 'private',
    status: { anonymous: 401, forged: 401, other: 204, owner: 204 },
    request: (_world, _caller, cookie) => ({ method: 'DELETE', url: '/api/account/sessions', headers: cookie ? { cookie } : {} }),
    async check({ t, owner }) {
      const still = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: owner.cookie } });
      expect(still.json().user?.id).toBe(owner.id);
    },
  },
  'DELETE /api/account/sessions/:id': {
    access: 'private',
    // A session of the owner's own, made for this row: the other user cannot end it.
    status: { anonymous: 401, forged: 401, other: 404, owner: 204 },
    async request({ t, owner }, _caller, cookie) {
      await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: owner.email, password: owner.password } });
      const newest = await t.database.db
        .selectFrom('sessions')
        .select('public_id')
        .where('user_id', '=', owner.id)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();
      return { method: 'DELETE', url: `/api/account/sessions/${newest.public_id}`, headers: cookie ? { cookie } : {} };
    },
  },
  // Sign-in with the company's provider: off in this app, so the flow's doors send everyone back to /auth.
  'GET /api/auth/config': {
    access: 'public',
    status: { anonymous: 200, forged: 200, other: 200, owner: 200 },
    request: () => ({ method: 'GET', url: '/api/auth/config' }),
    check: (_world, _caller, response) => expect(response.json()).toEqual({ oidc: null, passwordLogin: true }),
  },
  'GET /api/auth/oidc/start': {
    access: 'public',
    status: { anonymous: 302, forged: 302, other: 302, owner: 302 },
    request: (_world, _caller, cookie) => ({ method: 'GET', url: '/api/auth/oidc/start?next=/ajustes', headers: cookie ? { cookie } : {} }),
    check: (_world, _caller, response) => expect(response.headers.location).toBe('/auth?error=unavailable'),
  },
  'GET /api/auth/oidc/callback': {
    access: 'public',
    status: { anonymous: 302, forged: 302, other: 302, owner: 302 },
    request: (_world, _caller, cookie) => ({ method: 'GET', url: '/api/auth/oidc/callback?code=x&state=y', headers: cookie ? { cookie } : {} }),
    check: (_world, _caller, response) => expect(response.cookies.some((c) => c.name === 'corto_session' && c.value !== '')).toBe(false),
  },
  'GET /api/account/oidc': {
    access: 'private',
    status: anyUser,
    request: (_world, _caller, cookie) => ({ method: 'GET', url: '/api/account/oidc', headers: cookie ? { cookie } : {} }),
    check: (_world, caller, response) => {
      if (caller === 'owner' || caller === 'other') expect(response.json()).toEqual({ linked: null, hasPassword: true });
    },
  },
  'DELETE /api/account/oidc': {
    access: 'private',
    // Nobody here is linked to a provider: nothing to unlink, for either of them.
    status: { anonymous: 401, forged: 401, other: 404, owner: 404 },
    request: (_world, _caller, cookie) => ({ method: 'DELETE', url: '/api/account/oidc', headers: cookie ? { cookie } : {} }),
  },
  'DELETE /api/account': {
    access: 'private',
    // Each signed-in caller deletes an account made for it, so the matrix's users stay.
    status: { anonymous: 401, forged: 401, other: 204, owner: 204 },
    async request({ t }, caller, cookie) {
      if (caller !== 'other' && caller !== 'owner') return { method: 'DELETE', url: '/api/account', headers: cookie ? { cookie } : {}, payload: { password: 'x' } };
      const leaving = await registerUser(t.app, { name: `Se va ${caller}` });
      return { method: 'DELETE', url: '/api/account', headers: { cookie: leaving.cookie }, payload: { password: leaving.password } };
    },
    async check({ t }, caller) {
      const rows = await t.database.db.selectFrom('users').select('id').where('name', '=', `Se va ${caller}`).execute();
      expect(rows).toEqual([]);
    },
  },
  'POST /api/account/totp': {
    access: 'private',
    status: anyUser,
    request: (_world, _caller, cookie) => ({ method: 'POST', url: '/api/account/totp', headers: cookie ? { cookie } : {} }),
    check(_world, caller, response) {
      if (caller === 'owner' || caller === 'other') expect(response.json().otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    },
  },
  'POST /api/account/totp/confirm': {
    access: 'private',
    status: { anonymous: 401, forged: 401, other: 400, owner: 400 },
    request: (_world, _caller, cookie) => ({ method: 'POST', url: '/api/account/totp/confirm', headers: cookie ? { cookie } : {}, payload: { code: '000000' } }),
  },
  'DELETE /api/account/totp': {
    access: 'private',
    // Two-factor is off for both: nothing to turn off.
    status: { anonymous: 401, forged: 401, other: 409, owner: 409 },
    request: ({ owner }, _caller, cookie) => ({ method: 'DELETE', url: '/api/account/totp', headers: cookie ? { cookie } : {}, payload: { password: owner.password, code: '000000' } }),
  },
  'POST /api/auth/totp': {
    access: 'public',
    // No login asked for a code: no challenge, whoever calls.
    status: { anonymous: 401, forged: 401, other: 401, owner: 401 },
    request: (_world, _caller, cookie) => ({ method: 'POST', url: '/api/auth/totp', headers: cookie ? { cookie } : {}, payload: { code: '000000' } }),
  },
  'GET /api/auth/password-reset': {
    access: 'public',
    status: { anonymous: 200, forged: 200, other: 200, owner: 200 },
    request: () => ({ method: 'GET', url: '/api/auth/password-reset' }),
    check: (_world, _caller, response) => expect(response.json()).toEqual({ available: false }),
  },
  'POST /api/auth/password-reset': {
    access: 'public',
    // Without SMTP_URL (as here) the e-mail is not offered: the same answer for every caller.
    status: { anonymous: 404, forged: 404, other: 404, owner: 404 },
    request: ({ owner }) => ({ method: 'POST', url: '/api/auth/password-reset', payload: { email: owner.email } }),
  },
  'POST /api/auth/password-reset/confirm': {
    access: 'public',
    status: { anonymous: 400, forged: 400, other: 400, owner: 400 },
    request: () => ({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token: 'inventado', password: 'nueva-clave-123' } }),
  },
  'GET /api/account/email/verification': {
    access: 'private',
    status: anyUser,
    request: (_world, _caller, cookie) => ({ method: 'GET', url: '/api/account/email/verification', headers: cookie ? { cookie } : {} }),
    check(_world, caller, response) {
      if (caller === 'owner' || caller === 'other') expect(response.json()).toEqual({ verified: false, available: false, linkSent: false, pendingEmail: null });
    },
  },
  'POST /api/account/email/pending/resend': {
    access: 'private',
    // Without SMTP_URL (as here) no change ever waits: 404 for whoever is signed in.
    status: { anonymous: 401, forged: 401, other: 404, owner: 404 },
    request: (_world, _caller, cookie) => ({ method: 'POST', url: '/api/account/email/pending/resend', headers: cookie ? { cookie } : {} }),
  },
  'DELETE /api/account/email/pending': {
    access: 'private',
    status: { anonymous: 401, forged: 401, other: 404, owner: 404 },
    request: (_world, _caller, cookie) => ({ method: 'DELETE', url: '/api/account/email/pending', headers: cookie ? { cookie } : {} }),
  },
  'POST /api/account/email/verification': {
    access: 'private',
    // Without SMTP_URL (as here) no link can be mailed: 404 for whoever is signed in.
    status: { anonymous: 401, forged: 401, other: 404, owner: 404 },
    request: (_world, _caller, cookie) => ({ method: 'POST', url: '/api/account/email/verification', headers: cookie ? { cookie } : {} }),
  },
  'POST /api/auth/email-verification/confirm': {
    access: 'public',
    status: { anonymous: 400, forged: 400, other: 400, owner: 400 },
    request: () => ({ method: 'POST', url: '/api/auth/email-verification/confirm', payload: { token: 'inventado' } }),
  },
};


/** HEAD is answered for every GET route (Fastify's exposeHeadRoutes): the same access, no body. */
function entryFor(key: string): Entry | undefined {
  if (!key.startsWith('HEAD ')) return matrix[key];
  const get = matrix[`GET ${key.slice(5)}`];
  if (!get) return undefined;
  return {
    ...get,
    async request(world, caller, cookie) {
      return { ...(await get.request(world, caller, cookie)), method: 'HEAD' };
    },
    check: undefined,
  };
}

function cookieOf(world: World, caller: Caller): string | undefined {
  if (caller === 'forged') return FORGED_COOKIE;
  if (caller === 'anonymous') return undefined;
  return world[caller].cookie;
}

describe.each(testDialects)('access matrix of every /api route on %s', (dialect) => {
  let world: World;
  let registered: string[];

  beforeAll(async () => {
    const t = await createTestApp(dialect);
    await t.app.ready();
    // Workspace block: those routes are checked in workspace-access-matrix.test.ts.
    registered = apiRouteKeys(t.app).filter((key) => !coveredByWorkspaceMatrix(key));
    const actor = async (name: string, email: string): Promise<Actor> => {
      const { user, cookie, password } = await registerUser(t.app, { name, email });
      return { cookie, password, email, id: user.id };
    };
    const owner = await actor('Propietaria Zafiro', `zafiro-${dialect}@corto.test`);
    const other = await actor('Curiosa Ámbar', `ambar-${dialect}@corto.test`);
    await t.database.db.updateTable('users').set({ role: 'admin' }).where('id', '=', owner.id).execute();
    const ownerLink = await createLinkAs(t.app, owner.cookie, {
      title: 'Secreto de Zafiro',
      longUrl: 'https://zafiro.example/privado?clave=1',
      customUrl: 'zafiro-alias',
      tags: ['etiqueta-zafiro'],
    });
    const ownerLinkToDelete = await createLinkAs(t.app, owner.cookie, {
      title: 'Borrador de Zafiro',
      longUrl: 'https://zafiro.example/borrador',
      customUrl: 'borrador-zafiro',
    });
    // Moved, so it has a former alias for DELETE /api/links/:id/addresses/:address to free.
    const moved = await t.app.inject({
      method: 'PATCH',
      url: `/api/links/${ownerLinkToDelete.id}`,
      headers: { cookie: owner.cookie, ...sameOrigin },
      payload: { customUrl: 'borrador-zafiro-2' },
    });
    expect(moved.statusCode).toBe(200);
    // A click, so statistics have something of the owner's to leak.
    const visit = await t.app.inject({ method: 'GET', url: `/${ownerLink.shortCode}`, headers: { 'user-agent': agents.iphone } });
    expect(visit.statusCode).toBe(302);
    await t.app.appContext.clickWriter.flush();
    const ownerSecrets = [
      owner.email,
      'Propietaria Zafiro',
      owner.cookie.split('=')[1]!,
      ...[ownerLink, ownerLinkToDelete].flatMap((link) => [link.title, link.originalUrl, link.shortCode, link.qr]),
      'zafiro-alias',
      'etiqueta-zafiro',
    ];
    world = { t, owner, other, ownerLink, ownerLinkToDelete, ownerSecrets };
  });
  afterAll(async () => world?.t.close());

  it('has a row for every registered /api route, and every row names a registered route', () => {
    const missing = registered.filter((key) => !entryFor(key));
    expect(missing, 'routes with no row in the access matrix').toEqual([]);
    const stale = Object.keys(matrix).filter((key) => !registered.includes(key));
    expect(stale, 'matrix rows for routes the app does not have').toEqual([]);
    expect(registered.length).toBeGreaterThanOrEqual(9);
  });

  // The routes themselves are only known once the app is built, so each one is one test over all callers.
  it.for(Object.keys(matrix).flatMap((key) => (key.startsWith('GET ') ? [key, `HEAD ${key.slice(4)}`] : [key])))(
    '%s answers each caller as it should',
    async (key, context) => {
      if (!registered.includes(key)) context.skip(`${key} is not registered (the first test fails for it)`);
      const entry = entryFor(key)!;
      for (const caller of callers) {
        // As the web app calls them: a browser marks its own writes same-origin.
        const options = await entry.request(world, caller, cookieOf(world, caller));
        const response = await injectRoute(world.t.app, key, { ...options, headers: { ...sameOrigin, ...options.headers } });
        const label = `${key} as ${caller}: ${response.body.slice(0, 300)}`;
        expect(response.statusCode, label).toBe(entry.status[caller]);
        expect(response.statusCode, label).toBeLessThan(500);
        if (entry.access === 'private' && (caller === 'anonymous' || caller === 'forged')) {
          expect(response.statusCode, label).toBe(401);
        }
        if (response.statusCode >= 400 && !key.startsWith('HEAD ')) {
          const body = apiErrorSchema.parse(response.json());
          expect(body.error.message, label).toMatch(/[a-záéíóúñ]{3,}/i);
          if (response.statusCode === 401) expect(body.error.code).toBe('unauthorized');
          if (response.statusCode === 404) expect(body.error.code).toBe('not_found');
        }
        if (caller !== 'owner') {
          const seen = JSON.stringify(response.headers) + response.body;
          for (const secret of world.ownerSecrets) expect(seen, `${label} shows the owner's "${secret}"`).not.toContain(secret);
        }
        await entry.check?.(world, caller, response);
      }
    },
  );

  it("answers another user's link exactly as a link that does not exist", async () => {
    const { t, other, ownerLink } = world;
    for (const suffix of ['', '/stats']) {
      if (!registered.includes(`GET /api/links/:id${suffix}`)) continue;
      const theirs = await t.app.inject({ method: 'GET', url: `/api/links/${ownerLink.id}${suffix}`, headers: { cookie: other.cookie } });
      const none = await t.app.inject({ method: 'GET', url: `/api/links/987654321${suffix}`, headers: { cookie: other.cookie } });
      expect(theirs.statusCode).toBe(404);
      expect(theirs.body).toBe(none.body);
    }
  });
});

// The same routes as seen from inside a team workspace: every links, tags, statistics and tokens
// route called with ?workspace= by each role there and by someone who is not a member. Reading
// takes a viewer, changing links and tags an editor, the workspace's tokens an admin (docs/workspaces.md).

type Role = 'nonMember' | 'viewer' | 'editor' | 'admin' | 'owner';
// Lowest first, so a refusal is tried before someone may change what it would have changed.
const roles: Role[] = ['nonMember', 'viewer', 'editor', 'admin', 'owner'];
const TEAM = 'equipo-zafiro';

interface TeamWorld {
  t: TestApp;
  members: Record<Role, Actor>;
  teamLink: Link;
}

interface RoleEntry {
  status: Record<Role, number>;
  request(world: TeamWorld, role: Role): Promise<InjectOptions> | InjectOptions;
  check?(world: TeamWorld, role: Role, response: LightMyRequestResponse): Promise<void> | void;
}

const read = { nonMember: 404, viewer: 200, editor: 200, admin: 200, owner: 200 };
const write = (ok: number) => ({ nonMember: 404, viewer: 403, editor: ok, admin: ok, owner: ok });
const manage = (ok: number) => ({ nonMember: 404, viewer: 403, editor: 403, admin: ok, owner: ok });
const inTeam = (url: string) => `${url}${url.includes('?') ? '&' : '?'}workspace=${TEAM}`;
const asRole = (world: TeamWorld, role: Role, method: InjectOptions['method'], url: string, payload?: unknown): InjectOptions => ({
  method,
  url: inTeam(url),
  headers: { cookie: world.members[role].cookie, ...sameOrigin },
  ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
});
/** A link of the team made by its owner, for one caller's destructive request. */
const freshTeamLink = async (world: TeamWorld, title: string, customUrl?: string): Promise<Link> => {
  const response = await world.t.app.inject(asRole(world, 'owner', 'POST', '/api/links', { title, longUrl: 'https://zafiro.example/equipo', customUrl }));
  if (response.statusCode !== 201) throw new Error(`freshTeamLink: ${response.statusCode} ${response.body}`);
  return response.json().link as Link;
};
const teamLinkRow = (url: (link: Link) => string): RoleEntry => ({
  status: read,
  request: (world, role) => asRole(world, role, 'GET', url(world.teamLink)),
});

const roleMatrix: Record<string, RoleEntry> = {
  'GET /api/links': {
    status: read,
    request: (world, role) => asRole(world, role, 'GET', '/api/links'),
    check({ teamLink }, role, response) {
      if (role !== 'nonMember') expect((response.json().links as Link[]).map((link) => link.id)).toContain(teamLink.id);
    },
  },
  'POST /api/links': {
    status: write(201),
    request: (world, role) => asRole(world, role, 'POST', '/api/links', { title: `Del equipo por ${role}`, longUrl: 'https://zafiro.example/nuevo' }),
    check({ members }, role, response) {
      if (response.statusCode === 201) expect(response.json().link).toMatchObject({ workspace: TEAM, createdBy: { id: members[role].id } });
    },
  },
  'GET /api/links/:id': teamLinkRow((link) => `/api/links/${link.id}`),
  'GET /api/links/:id/stats': teamLinkRow((link) => `/api/links/${link.id}/stats`),
  'GET /api/links/:id/qr': teamLinkRow((link) => `/api/links/${link.id}/qr?format=svg`),
  'GET /api/links/:id/clicks.csv': teamLinkRow((link) => `/api/links/${link.id}/clicks.csv`),
  'GET /api/links/:id/live': teamLinkRow((link) => `/api/links/${link.id}/live`),
  'PATCH /api/links/:id': {
    status: write(200),
    request: (world, role) => asRole(world, role, 'PATCH', `/api/links/${world.teamLink.id}`, { title: `Cambiado por ${role}` }),
    async check({ t, teamLink }, role, response) {
      const row = await t.database.db.selectFrom('urls').select('title').where('id', '=', teamLink.id).executeTakeFirstOrThrow();
      expect(row.title === `Cambiado por ${role}`).toBe(response.statusCode === 200);
    },
  },
  'POST /api/links/:id/variants/:index/winner': {
    status: write(200),
    async request(world, role) {
      const variants = [{ url: 'https://zafiro.example/a', weight: 30 }, { url: 'https://zafiro.example/b', weight: 70 }];
      const made = await world.t.app.inject(asRole(world, 'owner', 'POST', '/api/links', { title: `Prueba A/B de ${role}`, longUrl: 'https://zafiro.example/ab', variants }));
      return asRole(world, role, 'POST', `/api/links/${(made.json() as { link: Link }).link.id}/variants/0/winner`);
    },
    check(_world, _role, response) {
      if (response.statusCode === 200) expect(response.json().link).toMatchObject({ originalUrl: 'https://zafiro.example/a', variants: null, workspace: TEAM });
    },
  },
  'PUT /api/links/:id/preview-image': {
    status: write(200),
    async request(world, role) {
      const link = await freshTeamLink(world, `Vista previa del equipo por ${role}`);
      const body = await multipart({ image: { bytes: await makeImage('png', 120, 63), filename: 'v.png', type: 'image/png' } });
      const options = asRole(world, role, 'PUT', `/api/links/${link.id}/preview-image`);
      return { ...options, headers: { ...options.headers, ...body.headers }, payload: body.payload };
    },
    check(_world, _role, response) {
      if (response.statusCode === 200) expect(response.json().link.preview.image).toMatch(/\/storage\/previews\/pv-/);
    },
  },
  'DELETE /api/links/:id/preview-image': {
    status: write(200),
    async request(world, role) {
      const link = await freshTeamLink(world, `Sin vista previa del equipo por ${role}`);
      const body = await multipart({ image: { bytes: await makeImage('png', 120, 63), filename: 'v.png', type: 'image/png' } });
      const put = asRole(world, 'owner', 'PUT', `/api/links/${link.id}/preview-image`);
      await world.t.app.inject({ ...put, headers: { ...put.headers, ...body.headers }, payload: body.payload });
      return asRole(world, role, 'DELETE', `/api/links/${link.id}/preview-image`);
    },
    check(_world, _role, response) {
      if (response.statusCode === 200) expect(response.json().link.preview).toBeNull();
    },
  },
  'DELETE /api/links/:id': {
    status: write(204),
    request: async (world, role) => asRole(world, role, 'DELETE', `/api/links/${(await freshTeamLink(world, `Borrable por ${role}`)).id}`),
  },
  'DELETE /api/links/:id/addresses/:address': {
    status: write(204),
    async request(world, role) {
      const link = await freshTeamLink(world, `Antiguo de ${role}`, `antigua-${role.toLowerCase()}`);
      await world.t.app.inject(asRole(world, 'owner', 'PATCH', `/api/links/${link.id}`, { customUrl: `nueva-${role.toLowerCase()}` }));
      return asRole(world, role, 'DELETE', `/api/links/${link.id}/addresses/antigua-${role.toLowerCase()}`);
    },
  },
  'GET /api/links.csv': {
    status: read,
    request: (world, role) => asRole(world, role, 'GET', '/api/links.csv'),
    check({ teamLink }, role, response) {
      if (role !== 'nonMember') expect(response.body).toContain(teamLink.shortLink);
    },
  },
  'GET /api/tags': {
    status: read,
    request: (world, role) => asRole(world, role, 'GET', '/api/tags'),
    check(_world, role, response) {
      if (role !== 'nonMember') expect((response.json().tags as { name: string }[]).map((tag) => tag.name)).toContain('etiqueta-equipo');
    },
  },
  'GET /api/links/quota': { status: read, request: (world, role) => asRole(world, role, 'GET', '/api/links/quota') },
  'GET /api/links/import/progress': { status: read, request: (world, role) => asRole(world, role, 'GET', '/api/links/import/progress') },
  'POST /api/links/bulk': {
    status: write(200),
    request: (world, role) => asRole(world, role, 'POST', '/api/links/bulk', { links: [{ title: `Lote de ${role}`, longUrl: 'https://zafiro.example/lote' }] }),
    check(_world, _role, response) {
      if (response.statusCode === 200) expect(response.json().results[0].link.workspace).toBe(TEAM);
    },
  },
  'POST /api/links/bulk-update': {
    status: write(200),
    request: (world, role) => asRole(world, role, 'POST', '/api/links/bulk-update', { ids: [world.teamLink.id], changes: { addTags: [`de-${role.toLowerCase()}`] } }),
    check(_world, _role, response) {
      if (response.statusCode === 200) expect(response.json().updated).toBe(1);
    },
  },
  'POST /api/links/bulk-delete': {
    status: write(200),
    request: async (world, role) => asRole(world, role, 'POST', '/api/links/bulk-delete', { ids: [(await freshTeamLink(world, `Lote borrable por ${role}`)).id] }),
    check(_world, _role, response) {
      if (response.statusCode === 200) expect(response.json().deleted).toBe(1);
    },
  },
  'POST /api/links/import': {
    status: write(200),
    async request(world, role) {
      const body = await multipart({ file: { bytes: Buffer.from(`title,longUrl\nImportado por ${role},https://zafiro.example/i\n`), filename: 'l.csv', type: 'text/csv' } });
      const options = asRole(world, role, 'POST', '/api/links/import');
      return { ...options, headers: { ...options.headers, ...body.headers }, payload: body.payload };
    },
    check(_world, _role, response) {
      if (response.statusCode === 200) expect(response.json()).toMatchObject({ created: 1, failed: [] });
    },
  },
  'GET /api/tokens': {
    status: manage(200),
    request: (world, role) => asRole(world, role, 'GET', '/api/tokens'),
  },
  'POST /api/tokens': {
    status: manage(201),
    request: (world, role) => asRole(world, role, 'POST', '/api/tokens', { name: `Equipo ${role}`, scope: 'read' }),
    async check({ t }, role, response) {
      if (response.statusCode !== 201) return;
      const row = await t.database.db.selectFrom('api_tokens').innerJoin('workspaces', 'workspaces.id', 'api_tokens.workspace_id').select('workspaces.slug').where('api_tokens.name', '=', `Equipo ${role}`).executeTakeFirstOrThrow();
      expect(row.slug).toBe(TEAM);
    },
  },
  'DELETE /api/tokens/:id': {
    status: manage(204),
    async request(world, role) {
      const made = await world.t.app.inject(asRole(world, 'owner', 'POST', '/api/tokens', { name: `Revocable por ${role}`, scope: 'read' }));
      return asRole(world, role, 'DELETE', `/api/tokens/${(made.json() as { token: { id: number } }).token.id}`);
    },
  },
  // 'Revocar todos': every token the caller made, in every workspace; ?workspace= plays no part.
  'DELETE /api/tokens': {
    status: { nonMember: 200, viewer: 200, editor: 200, admin: 200, owner: 200 },
    request: (world, role) => asRole(world, role, 'DELETE', '/api/tokens'),
  },
};

/** The routes of links, tags, statistics and tokens: each must have a row per role above. */
const actsInWorkspace = (key: string) => /^[A-Z]+ \/api\/(links|tags|tokens)([/.]|$)/.test(key);

function roleEntryFor(key: string): RoleEntry | undefined {
  if (!key.startsWith('HEAD ')) return roleMatrix[key];
  const get = roleMatrix[`GET ${key.slice(5)}`];
  return get && { ...get, request: async (world, role) => ({ ...(await get.request(world, role)), method: 'HEAD' }), check: undefined };
}

describe.each(testDialects)('access matrix of the workspace routes by role on %s', (dialect) => {
  let world: TeamWorld;
  let registered: string[];

  beforeAll(async () => {
    const t = await createTestApp(dialect, { LINKS_PER_HOUR: '0' });
    await t.app.ready();
    registered = apiRouteKeys(t.app);
    const actor = async (role: Role): Promise<Actor> => {
      const email = `${role.toLowerCase()}-${dialect}@corto.test`;
      const { user, cookie, password } = await registerUser(t.app, { name: `Rol ${role}`, email });
      return { cookie, password, email, id: user.id };
    };
    const members = {} as Record<Role, Actor>;
    for (const role of roles) members[role] = await actor(role);
    await addTeamWorkspace(t.database.db, {
      slug: TEAM,
      members: (['viewer', 'editor', 'admin', 'owner'] as const).map((role) => ({ userId: members[role].id, role })),
    });
    world = { t, members, teamLink: undefined as unknown as Link };
    world.teamLink = await freshTeamLink(world, 'Del equipo Zafiro', 'equipo-zafiro-link');
    await t.app.inject(asRole(world, 'owner', 'PATCH', `/api/links/${world.teamLink.id}`, { tags: ['etiqueta-equipo'] }));
  });
  afterAll(async () => world?.t.close());

  it('has a row for every links, tags, statistics and tokens route', () => {
    const missing = registered.filter((key) => actsInWorkspace(key) && !roleEntryFor(key));
    expect(missing, 'workspace routes with no row in the role matrix').toEqual([]);
    const stale = Object.keys(roleMatrix).filter((key) => !registered.includes(key));
    expect(stale, 'role matrix rows for routes the app does not have').toEqual([]);
  });

  it.for(Object.keys(roleMatrix).flatMap((key) => (key.startsWith('GET ') ? [key, `HEAD ${key.slice(4)}`] : [key])))(
    '%s answers each role as it should',
    async (key, context) => {
      if (!registered.includes(key)) context.skip(`${key} is not registered (the first test fails for it)`);
      const entry = roleEntryFor(key)!;
      for (const role of roles) {
        const options = await entry.request(world, role);
        const response = await injectRoute(world.t.app, key, { ...options, headers: { ...sameOrigin, ...options.headers } });
        const label = `${key} as ${role}: ${response.body.slice(0, 300)}`;
        expect(response.statusCode, label).toBe(entry.status[role]);
        if (response.statusCode >= 400 && !key.startsWith('HEAD ')) {
          const body = apiErrorSchema.parse(response.json());
          if (response.statusCode === 403) expect(body.error.message, label).toBe(workspaceMessages.forbiddenRole);
          if (response.statusCode === 404) expect(body.error.message, label).toBe(workspaceMessages.notFound);
        }
        if (role === 'nonMember') expect(response.body, label).not.toContain(world.teamLink.title);
        await entry.check?.(world, role, response);
      }
    },
  );
});
