import { apiErrorSchema } from '@common/api-error';
import type { Link } from '@common/links/link-schemas';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { agents } from '../redirect/redirect.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { makeImage, multipart, registerUser, sameOrigin, sessionCookie } from '../test/test-users';
import { apiRouteKeys } from './registered-routes';

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
const ownerOnly = { anonymous: 401, forged: 401, other: 404, owner: 200 };
const anyUser = { anonymous: 401, forged: 401, other: 200, owner: 200 };
let counter = 0;
/** The session the last logout call ended. */
let loggedOut: string | undefined;

const matrix: Record<string, Entry> = {
  'GET /api/health': {
    access: 'public',
    status: { anonymous: 200, forged: 200, other: 200, owner: 200 },
    request: () => ({ method: 'GET', url: '/api/health' }),
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
  'POST /api/links/import': {
    access: 'private',
    status: anyUser,
    async request(_world, caller, cookie) {
      const body = await multipart({ file: { bytes: Buffer.from(`title,longUrl\nImportado por ${caller},https://example.com/i\n`), filename: 'l.csv', type: 'text/csv' } });
      return { method: 'POST', url: '/api/links/import', headers: { ...(cookie ? { cookie, ...sameOrigin } : {}), ...body.headers }, payload: body.payload };
    },
    check(_world, _caller, response) {
      if (response.statusCode === 200) expect(response.json()).toEqual({ created: 1, failed: [] });
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
    registered = apiRouteKeys(t.app);
    const actor = async (name: string, email: string): Promise<Actor> => {
      const { user, cookie, password } = await registerUser(t.app, { name, email });
      return { cookie, password, email, id: user.id };
    };
    const owner = await actor('Propietaria Zafiro', `zafiro-${dialect}@corto.test`);
    const other = await actor('Curiosa Ámbar', `ambar-${dialect}@corto.test`);
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
        const response = await world.t.app.inject({ ...options, headers: { ...sameOrigin, ...options.headers } });
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
