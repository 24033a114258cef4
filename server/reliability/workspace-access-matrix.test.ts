import { apiErrorSchema } from '@common/api-error';
import type { WorkspaceRole } from '@common/workspaces/workspace-roles';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { sameOrigin } from '../test/test-users';
import { insertInvite } from '../workspaces/invites';
import { addMember, createWorkspaceAs, person, type Person, type Team, team } from '../workspaces/workspaces.test-support';
import { apiRouteKeys } from './registered-routes';
import { coveredByWorkspaceMatrix } from './workspace-access-routes';

// The access matrix's workspace block: every route of the workspaces, their members, invitations,
// activity and domains, and the operator's workspaces and domains, called as an anonymous visitor, with a forged
// session, as a signed-in user who belongs to nothing there (outsider), and as a viewer, an editor,
// an admin and an owner of the workspace. The owner is also the install's admin. Checked against
// the routes the app registers, as access-matrix.test.ts does for the rest (it leaves these here).

type Caller = 'anonymous' | 'forged' | 'outsider' | WorkspaceRole;
const callers: Caller[] = ['anonymous', 'forged', 'outsider', 'viewer', 'editor', 'admin', 'owner'];
type Status = Record<Caller, number>;

interface World {
  t: TestApp;
  team: Team;
}

interface Entry {
  access: 'public' | 'private';
  status: Status;
  request(world: World, caller: Caller, cookie: string | undefined): Promise<InjectOptions> | InjectOptions;
  check?(world: World, caller: Caller, response: LightMyRequestResponse): Promise<void> | void;
}

const FORGED_COOKIE = 'corto_session=Zm9yZ2VkLXNlc3Npb24tdG9rZW4tdGhhdC13YXMtbmV2ZXItaXNzdWVk';
const signedIn = (status: number, roles: Partial<Record<Caller, number>> = {}): Status => ({
  anonymous: 401,
  forged: 401,
  outsider: status,
  viewer: status,
  editor: status,
  admin: status,
  owner: status,
  ...roles,
});
/** 404 to an outsider; from `least` up the role's answer, below it 403. */
const fromRole = (least: WorkspaceRole, ok: number): Status => {
  const order: WorkspaceRole[] = ['viewer', 'editor', 'admin', 'owner'];
  const status = signedIn(404);
  for (const role of order) status[role] = order.indexOf(role) >= order.indexOf(least) ? ok : 403;
  return status;
};
// The owner is the install's admin too; nobody else is.
const installAdmin = (ok: number) => signedIn(403, { owner: ok });

const send = (method: InjectOptions['method'], url: string, cookie: string | undefined, payload?: Record<string, unknown>): InjectOptions => ({
  method,
  url,
  headers: cookie ? { cookie } : {},
  ...(payload ? { payload } : {}),
});

let counter = 0;
const unique = (caller: Caller) => `${caller}-${++counter}-${Date.now()}`;

/** The caller's person in a team (the world's or a fresh one), or nobody's for the anonymous and forged. */
function who(world: Team, caller: Caller): Person | undefined {
  return caller === 'anonymous' || caller === 'forged' ? undefined : world[caller];
}

/** A team of its own for a destructive call, with the world's people in the same roles (and its outsider outside). */
async function freshTeam({ t, team: world }: World): Promise<{ slug: string; id: number; extra: Person }> {
  // Made by someone else (the world's owner would reach the limit of teams an account owns).
  const host = await person(t.app, `Anfitriona ${++counter}`);
  const workspace = await createWorkspaceAs(t.app, host.cookie, { name: `Desechable ${counter}` });
  for (const role of ['owner', 'admin', 'editor', 'viewer'] as const) await addMember(t, workspace.id, world[role].id, role);
  const extra = await person(t.app, `Extra ${counter}`);
  await addMember(t, workspace.id, extra.id, 'viewer');
  return { slug: workspace.slug, id: workspace.id, extra };
}

/** A verified domain of the team, written straight into the table (adding one is tested in server/domains). */
async function teamDomain({ t, team: world }: World, label: string): Promise<number> {
  const now = Date.now();
  const row = await t.database.db
    .insertInto('domains')
    .values({ workspace_id: world.workspace.id, hostname: `${label}-${++counter}-${now}.matriz.test`, verification_token: 'corto-verify=matriz', verified_at: now, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.app.appContext.hostedDomains.load();
  return Number(row.id);
}
let sharedDomain: number | undefined;
const worldDomain = async (world: World) => (sharedDomain ??= await teamDomain(world, 'equipo'));
/** A webhook of the team, straight in the table: its receiver (this machine) is refused at once, so a ping answers fast. */
async function teamWebhook({ t, team: world }: World): Promise<number> {
  const row = await t.database.db
    .insertInto('webhooks')
    .values({ workspace_id: world.workspace.id, url: 'http://127.0.0.1:9/matriz', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', events: '["link.clicked"]', filtered: 0, enabled: 0, disabled_reason: null, created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
let sharedWebhook: { id: number; delivery: number } | undefined;
async function worldWebhook(world: World): Promise<{ id: number; delivery: number }> {
  if (sharedWebhook) return sharedWebhook;
  const id = await teamWebhook(world);
  const now = Date.now();
  const delivery = await world.t.database.db
    .insertInto('webhook_deliveries')
    .values({ webhook_id: id, event: 'ping', payload: '{}', status: 'failed', attempts: 1, next_attempt_at: null, locked_until: null, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (sharedWebhook = { id, delivery: Number(delivery.id) });
}
const inTeam = ({ team: world }: World, url: string) => `${url}${url.includes('?') ? '&' : '?'}workspace=${world.workspace.slug}`;

const matrix: Record<string, Entry> = {
  'GET /api/webhooks': {
    access: 'private',
    status: fromRole('admin', 200),
    request: (world, _caller, cookie) => send('GET', inTeam(world, '/api/webhooks'), cookie),
    check(_world, _caller, response) {
      if (response.statusCode === 200) expect(response.body).not.toContain('whsec_');
    },
  },
  'POST /api/webhooks': {
    access: 'private',
    status: fromRole('admin', 201),
    request: (world, caller, cookie) => send('POST', inTeam(world, '/api/webhooks'), cookie, { url: `https://crm.matriz.test/${unique(caller)}`, events: ['link.clicked'] }),
  },
  'GET /api/webhooks/:id': {
    access: 'private',
    status: fromRole('admin', 200),
    request: async (world, _caller, cookie) => send('GET', inTeam(world, `/api/webhooks/${(await worldWebhook(world)).id}`), cookie),
  },
  'PATCH /api/webhooks/:id': {
    access: 'private',
    status: fromRole('admin', 200),
    request: async (world, _caller, cookie) => send('PATCH', inTeam(world, `/api/webhooks/${(await worldWebhook(world)).id}`), cookie, { events: ['link.clicked'] }),
  },
  'DELETE /api/webhooks/:id': {
    access: 'private',
    status: fromRole('admin', 204),
    request: async (world, _caller, cookie) => send('DELETE', inTeam(world, `/api/webhooks/${await teamWebhook(world)}`), cookie),
  },
  'POST /api/webhooks/:id/test': {
    access: 'private',
    status: fromRole('admin', 200),
    request: async (world, _caller, cookie) => send('POST', inTeam(world, `/api/webhooks/${(await worldWebhook(world)).id}/test`), cookie),
  },
  'GET /api/webhooks/:id/deliveries': {
    access: 'private',
    status: fromRole('admin', 200),
    request: async (world, _caller, cookie) => send('GET', inTeam(world, `/api/webhooks/${(await worldWebhook(world)).id}/deliveries`), cookie),
  },
  'POST /api/webhooks/:id/deliveries/:deliveryId/retry': {
    access: 'private',
    status: fromRole('admin', 200),
    request: async (world, _caller, cookie) => {
      const { id, delivery } = await worldWebhook(world);
      return send('POST', inTeam(world, `/api/webhooks/${id}/deliveries/${delivery}/retry`), cookie);
    },
  },
  'GET /api/workspaces': {
    access: 'private',
    status: signedIn(200),
    request: (_world, _caller, cookie) => send('GET', '/api/workspaces', cookie),
    check({ team: world }, caller, response) {
      if (response.statusCode !== 200) return;
      const ids = response.json().workspaces.map((w: { id: number }) => w.id);
      expect(ids.includes(world.workspace.id), `${caller} sees the team`).toBe(caller !== 'outsider');
    },
  },
  'POST /api/workspaces': {
    access: 'private',
    status: signedIn(201),
    request: (_world, caller, cookie) => send('POST', '/api/workspaces', cookie, { name: `Nuevo de ${unique(caller)}` }),
    check: (_world, _caller, response) => {
      if (response.statusCode === 201) expect(response.json().workspace.role).toBe('owner');
    },
  },
  'PATCH /api/workspaces/:slug': {
    access: 'private',
    status: fromRole('owner', 200),
    request: ({ team: world }, _caller, cookie) => send('PATCH', `/api/workspaces/${world.workspace.slug}`, cookie, { name: world.workspace.name }),
  },
  'DELETE /api/workspaces/:slug': {
    access: 'private',
    status: fromRole('owner', 204),
    async request(world, caller, cookie) {
      const { slug } = await freshTeam(world);
      return send('DELETE', `/api/workspaces/${slug}`, cookie, { password: who(world.team, caller)?.password ?? 'x' });
    },
  },
  'GET /api/workspaces/:slug/members': {
    access: 'private',
    status: fromRole('viewer', 200),
    request: ({ team: world }, _caller, cookie) => send('GET', `/api/workspaces/${world.workspace.slug}/members`, cookie),
  },
  'PATCH /api/workspaces/:slug/members/:userId': {
    access: 'private',
    status: fromRole('admin', 200),
    // The viewer kept a viewer: the world's roles stay as they are.
    request: ({ team: world }, _caller, cookie) =>
      send('PATCH', `/api/workspaces/${world.workspace.slug}/members/${world.viewer.id}`, cookie, { role: 'viewer' }),
  },
  'DELETE /api/workspaces/:slug/members/:userId': {
    access: 'private',
    status: fromRole('admin', 204),
    async request(world, _caller, cookie) {
      const { slug, extra } = await freshTeam(world);
      return send('DELETE', `/api/workspaces/${slug}/members/${extra.id}`, cookie);
    },
  },
  'POST /api/workspaces/:slug/invites': {
    access: 'private',
    status: fromRole('admin', 201),
    request: ({ team: world }, caller, cookie) =>
      send('POST', `/api/workspaces/${world.workspace.slug}/invites`, cookie, { email: `invitada-${unique(caller)}@corto.test`, role: 'editor' }),
  },
  'GET /api/workspaces/:slug/invites': {
    access: 'private',
    status: fromRole('admin', 200),
    request: ({ team: world }, _caller, cookie) => send('GET', `/api/workspaces/${world.workspace.slug}/invites`, cookie),
  },
  'DELETE /api/workspaces/:slug/invites/:id': {
    access: 'private',
    status: fromRole('admin', 204),
    async request({ t, team: world }, caller, cookie) {
      const { row } = await insertInvite(t.database.db, { workspaceId: world.workspace.id, email: `revocable-${unique(caller)}@corto.test`, role: 'viewer', createdBy: world.owner.id });
      return send('DELETE', `/api/workspaces/${world.workspace.slug}/invites/${row.id}`, cookie);
    },
  },
  'GET /api/invites/:token': {
    access: 'public',
    status: { anonymous: 200, forged: 200, outsider: 200, viewer: 200, editor: 200, admin: 200, owner: 200 },
    async request({ t, team: world }, caller) {
      const { secret } = await insertInvite(t.database.db, { workspaceId: world.workspace.id, email: `vista-${unique(caller)}@corto.test`, role: 'viewer', createdBy: world.owner.id });
      return send('GET', `/api/invites/${secret}`, undefined);
    },
  },
  'POST /api/invites/:token/accept': {
    access: 'private',
    // Each signed-in caller accepts an invitation to its own address, into a workspace it is not in.
    status: signedIn(200),
    async request({ t, team: world }, caller, cookie) {
      const host = await person(t.app);
      const workspace = await createWorkspaceAs(t.app, host.cookie, { name: `Anfitrión ${unique(caller)}` });
      const email = who(world, caller)?.email ?? `nadie-${unique(caller)}@corto.test`;
      const { secret } = await insertInvite(t.database.db, { workspaceId: workspace.id, email, role: 'viewer', createdBy: host.id });
      return send('POST', `/api/invites/${secret}/accept`, cookie);
    },
  },
  'GET /api/workspaces/:slug/activity': {
    access: 'private',
    status: fromRole('viewer', 200),
    request: ({ team: world }, _caller, cookie) => send('GET', `/api/workspaces/${world.workspace.slug}/activity`, cookie),
  },
  'GET /api/domains': {
    access: 'private',
    status: fromRole('viewer', 200),
    request: (world, _caller, cookie) => send('GET', inTeam(world, '/api/domains'), cookie),
  },
  'POST /api/domains': {
    access: 'private',
    status: fromRole('admin', 201),
    request: (world, caller, cookie) => send('POST', inTeam(world, '/api/domains'), cookie, { hostname: `${unique(caller)}.matriz.test` }),
  },
  'GET /api/domains/:id': {
    access: 'private',
    status: fromRole('viewer', 200),
    request: async (world, _caller, cookie) => send('GET', inTeam(world, `/api/domains/${await worldDomain(world)}`), cookie),
  },
  'PATCH /api/domains/:id': {
    access: 'private',
    status: fromRole('admin', 200),
    request: async (world, _caller, cookie) => send('PATCH', inTeam(world, `/api/domains/${await worldDomain(world)}`), cookie, { rootRedirect: null }),
  },
  'DELETE /api/domains/:id': {
    access: 'private',
    status: fromRole('admin', 204),
    request: async (world, _caller, cookie) => send('DELETE', inTeam(world, `/api/domains/${await teamDomain(world, 'borrable')}`), cookie),
  },
  'POST /api/domains/:id/verify': {
    access: 'private',
    // Already verified: answered without a DNS lookup (the lookup is tested against dnsmasq).
    status: fromRole('admin', 200),
    request: async (world, _caller, cookie) => send('POST', inTeam(world, `/api/domains/${await worldDomain(world)}/verify`), cookie),
  },
  'GET /api/domains/tls-allowed': {
    access: 'public',
    status: { anonymous: 200, forged: 200, outsider: 200, viewer: 200, editor: 200, admin: 200, owner: 200 },
    async request(world, _caller, cookie) {
      const id = await worldDomain(world);
      const domain = await world.t.database.db.selectFrom('domains').select('hostname').where('id', '=', id).executeTakeFirstOrThrow();
      return send('GET', `/api/domains/tls-allowed?domain=${domain.hostname}`, cookie);
    },
  },
  'GET /api/admin/domains': {
    access: 'private',
    status: installAdmin(200),
    request: (_world, _caller, cookie) => send('GET', '/api/admin/domains', cookie),
  },
  'PATCH /api/admin/domains/:id': {
    access: 'private',
    status: installAdmin(200),
    // Enabling a domain that is not disabled: the team's domain stays as it was for the other rows.
    request: async (world, _caller, cookie) => send('PATCH', `/api/admin/domains/${await worldDomain(world)}`, cookie, { disabled: false }),
  },
  'GET /api/admin/workspaces': {
    access: 'private',
    status: installAdmin(200),
    request: (_world, _caller, cookie) => send('GET', '/api/admin/workspaces', cookie),
  },
  'DELETE /api/admin/workspaces/:id': {
    access: 'private',
    status: installAdmin(204),
    async request(world, _caller, cookie) {
      const { id } = await freshTeam(world);
      return send('DELETE', `/api/admin/workspaces/${id}`, cookie);
    },
  },
};

function entryFor(key: string): Entry | undefined {
  if (!key.startsWith('HEAD ')) return matrix[key];
  const get = matrix[`GET ${key.slice(5)}`];
  return get && { ...get, request: async (world, caller, cookie) => ({ ...(await get.request(world, caller, cookie)), method: 'HEAD' }), check: undefined };
}

describe.each(testDialects)('access matrix of the workspace routes on %s', (dialect) => {
  let world: World;
  let registered: string[];

  beforeAll(async () => {
    const t = await createTestApp(dialect, { LINKS_PER_HOUR: '0', AUTH_RATE_LIMIT_IP: '0', AUTH_RATE_LIMIT_EMAIL: '0', DOMAINS_PER_WORKSPACE: '1000' });
    sharedDomain = undefined;
    sharedWebhook = undefined;
    await t.app.ready();
    registered = apiRouteKeys(t.app).filter(coveredByWorkspaceMatrix);
    const matrixTeam = await team(t, `Equipo matriz ${dialect}`);
    // A name none of its people's personal workspaces carries, to look for in answers to outsiders.
    const name = `Bóveda Zafiro ${dialect}`;
    await t.database.db.updateTable('workspaces').set({ name }).where('id', '=', matrixTeam.workspace.id).execute();
    matrixTeam.workspace = { ...matrixTeam.workspace, name };
    await t.database.db.updateTable('users').set({ role: 'admin' }).where('id', '=', matrixTeam.owner.id).execute();
    world = { t, team: matrixTeam };
  });
  afterAll(async () => world?.t.close());

  it('has a row for every registered workspace route, and every row names a registered route', () => {
    expect(registered.filter((key) => !entryFor(key)), 'workspace routes with no row').toEqual([]);
    expect(Object.keys(matrix).filter((key) => !registered.includes(key)), 'rows for routes the app does not have').toEqual([]);
  });

  it.for(Object.keys(matrix).flatMap((key) => (key.startsWith('GET ') ? [key, `HEAD ${key.slice(4)}`] : [key])))(
    '%s answers each caller as it should',
    async (key) => {
      const entry = entryFor(key)!;
      for (const caller of callers) {
        const cookie = caller === 'forged' ? FORGED_COOKIE : who(world.team, caller)?.cookie;
        const options = await entry.request(world, caller, cookie);
        const response = await world.t.app.inject({ ...options, headers: { ...sameOrigin, ...options.headers } });
        const label = `${key} as ${caller}: ${response.body.slice(0, 300)}`;
        expect(response.statusCode, label).toBe(entry.status[caller]);
        if (entry.access === 'private' && (caller === 'anonymous' || caller === 'forged')) expect(response.statusCode, label).toBe(401);
        if (response.statusCode >= 400 && !key.startsWith('HEAD ')) {
          const body = apiErrorSchema.parse(response.json());
          expect(body.error.message, label).toMatch(/[a-záéíóúñ]{3,}/i);
        }
        // Nothing of the team reaches someone outside it (the preview shows its name, by design).
        if (caller === 'outsider' && key !== 'GET /api/invites/:token' && !key.startsWith('POST /api/invites')) {
          for (const secret of [world.team.workspace.name, world.team.owner.email, world.team.viewer.email]) {
            expect(response.body, `${label} shows "${secret}"`).not.toContain(secret);
          }
        }
        await entry.check?.(world, caller, response);
      }
    },
  );
});
