import { linkMessages } from '@common/links/link-messages';
import type { Link, LinkList } from '@common/links/link-schemas';
import { tokenMessages } from '@common/tokens/token-messages';
import type { ApiToken } from '@common/tokens/token-schemas';
import { workspaceMessages } from '@common/workspaces/workspace-messages';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { multipart, registerUser, sameOrigin } from '../test/test-users';
import { bearer } from '../tokens/tokens.test-support';
import { addTeamWorkspace } from './workspaces.test-support';

// Links, tags, statistics and tokens act in the workspace ?workspace= names (else the token's,
// else the caller's personal one), with what each role may do there (docs/workspaces.md).

interface Member {
  id: number;
  name: string;
  cookie: string;
}

describe.each(testDialects)('links, tags and tokens in a workspace on %s', (dialect) => {
  let t: TestApp;
  let owner: Member, admin: Member, editor: Member, viewer: Member, outsider: Member;
  let team: { id: number; slug: string };

  beforeAll(async () => {
    t = await createTestApp(dialect, { LINKS_PER_HOUR: '0' });
    const member = async (name: string): Promise<Member> => {
      const { user, cookie } = await registerUser(t.app, { name });
      return { id: user.id, name, cookie };
    };
    [owner, admin, editor, viewer, outsider] = [await member('Olga'), await member('Adán'), await member('Edu'), await member('Vera'), await member('Nico')];
    team = await addTeamWorkspace(t.database.db, {
      slug: 'equipo',
      name: 'Equipo',
      members: [
        { userId: owner.id, role: 'owner' },
        { userId: admin.id, role: 'admin' },
        { userId: editor.id, role: 'editor' },
        { userId: viewer.id, role: 'viewer' },
      ],
    });
  });
  afterAll(async () => t?.close());

  const call = (who: Member, options: InjectOptions) =>
    t.app.inject({ ...options, headers: { cookie: who.cookie, ...sameOrigin, ...(options.headers as Record<string, string> | undefined) } });
  const create = async (who: Member, title: string, query = '?workspace=equipo', extra: Record<string, unknown> = {}) => {
    const response = await call(who, { method: 'POST', url: `/api/links${query}`, payload: { title, longUrl: 'https://example.com/equipo', ...extra } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().link as Link;
  };
  const list = async (who: Member, query = '') => {
    const response = await call(who, { method: 'GET', url: `/api/links${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as LinkList;
  };
  const personalSlugOf = async (userId: number) =>
    (await t.database.db.selectFrom('workspaces').select('slug').where('personal_user_id', '=', userId).executeTakeFirstOrThrow()).slug;
  const activity = async (action: string) =>
    t.database.db.selectFrom('workspace_activity').selectAll().where('workspace_id', '=', team.id).where('action', '=', action).orderBy('id').execute();

  it("puts a link made with ?workspace= in that workspace's list, not in the personal one, with its workspace and creator", async () => {
    const link = await create(editor, 'Campaña de equipo');
    expect(link.workspace).toBe('equipo');
    expect(link.createdBy).toEqual({ id: editor.id, name: 'Edu' });

    const teamList = await list(owner, '?workspace=equipo');
    expect(teamList.links.map((l) => l.id)).toContain(link.id);
    expect(teamList.links.find((l) => l.id === link.id)).toMatchObject({ workspace: 'equipo', createdBy: { id: editor.id, name: 'Edu' } });
    expect(teamList.totals.links).toBeGreaterThanOrEqual(1);
    expect((await list(editor)).links.map((l) => l.id)).not.toContain(link.id);
    expect((await list(owner)).links.map((l) => l.id)).not.toContain(link.id);

    // Without ?workspace=, the personal workspace, as every client before workspaces.
    const mine = await create(editor, 'Solo mío', '');
    expect(mine.workspace).toBe(await personalSlugOf(editor.id));
    expect(mine.createdBy).toEqual({ id: editor.id, name: 'Edu' });
    expect((await list(editor, '?workspace=equipo')).links.map((l) => l.id)).not.toContain(mine.id);
  });

  it("keeps tags per workspace: the team's tag is not in the personal list", async () => {
    await create(editor, 'Con etiqueta', '?workspace=equipo', { tags: ['Equipo-Azul'] });
    const teamTags = (await call(viewer, { method: 'GET', url: '/api/tags?workspace=equipo' })).json().tags as { name: string }[];
    expect(teamTags.map((tag) => tag.name)).toContain('Equipo-Azul');
    const own = (await call(editor, { method: 'GET', url: '/api/tags' })).json().tags as { name: string }[];
    expect(own.map((tag) => tag.name)).not.toContain('Equipo-Azul');
  });

  it('lets a viewer read, download QR codes and exports, and refuses every write with 403 in Spanish', async () => {
    const link = await create(editor, 'Para mirar');
    for (const url of [
      '/api/links?workspace=equipo',
      `/api/links/${link.id}?workspace=equipo`,
      `/api/links/${link.id}/stats?workspace=equipo`,
      `/api/links/${link.id}/qr?workspace=equipo`,
      `/api/links/${link.id}/clicks.csv?workspace=equipo`,
      '/api/links.csv?workspace=equipo',
      '/api/tags?workspace=equipo',
      '/api/links/quota?workspace=equipo',
      '/api/links/import/progress?workspace=equipo',
    ]) {
      const response = await call(viewer, { method: 'GET', url });
      expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBe(200);
    }
    expect((await call(viewer, { method: 'GET', url: '/api/links.csv?workspace=equipo' })).body).toContain('Para mirar');

    const file = await multipart({ file: { bytes: Buffer.from('title,longUrl\nImportado,https://example.com/i\n'), filename: 'l.csv', type: 'text/csv' } });
    const writes: InjectOptions[] = [
      { method: 'POST', url: '/api/links?workspace=equipo', payload: { title: 'No', longUrl: 'https://example.com/no' } },
      { method: 'PATCH', url: `/api/links/${link.id}?workspace=equipo`, payload: { paused: true } },
      { method: 'PATCH', url: `/api/links/${link.id}?workspace=equipo`, payload: { tags: ['nueva'] } },
      { method: 'DELETE', url: `/api/links/${link.id}?workspace=equipo` },
      { method: 'DELETE', url: `/api/links/${link.id}/addresses/antigua?workspace=equipo` },
      { method: 'POST', url: '/api/links/bulk?workspace=equipo', payload: { links: [{ title: 'No', longUrl: 'https://example.com/no' }] } },
      { method: 'POST', url: '/api/links/bulk-update?workspace=equipo', payload: { ids: [link.id], changes: { paused: true } } },
      { method: 'POST', url: '/api/links/bulk-delete?workspace=equipo', payload: { ids: [link.id] } },
      { method: 'POST', url: '/api/links/import?workspace=equipo', headers: file.headers, payload: file.payload },
    ];
    for (const write of writes) {
      const response = await call(viewer, write);
      expect(response.statusCode, `${write.method} ${write.url}: ${response.body.slice(0, 200)}`).toBe(403);
      expect(response.json().error.message).toBe(workspaceMessages.forbiddenRole);
    }
    const still = await call(owner, { method: 'GET', url: `/api/links/${link.id}?workspace=equipo` });
    expect(still.json().link).toMatchObject({ paused: false, tags: [] });
  });

  it("lets an editor change and delete another member's link", async () => {
    const link = await create(owner, 'De Olga');
    const paused = await call(editor, { method: 'PATCH', url: `/api/links/${link.id}?workspace=equipo`, payload: { paused: true, title: 'De Olga (pausado)' } });
    expect(paused.statusCode, paused.body).toBe(200);
    // The creator stays who made it, whoever edits it.
    expect(paused.json().link).toMatchObject({ paused: true, createdBy: { id: owner.id, name: 'Olga' }, workspace: 'equipo' });
    const bulk = await call(editor, { method: 'POST', url: '/api/links/bulk-update?workspace=equipo', payload: { ids: [link.id], changes: { paused: false, addTags: ['revisado'] } } });
    expect(bulk.json()).toMatchObject({ updated: 1 });
    expect((await call(editor, { method: 'DELETE', url: `/api/links/${link.id}?workspace=equipo` })).statusCode).toBe(204);
    expect((await call(owner, { method: 'GET', url: `/api/links/${link.id}?workspace=equipo` })).statusCode).toBe(404);
  });

  it("answers a non-member 404 for the workspace, and for its links by id as for another user's", async () => {
    const link = await create(editor, 'Privado del equipo');
    const workspace = await call(outsider, { method: 'GET', url: '/api/links?workspace=equipo' });
    expect(workspace.statusCode).toBe(404);
    expect(workspace.json().error.message).toBe(workspaceMessages.notFound);
    for (const url of [`/api/links/${link.id}`, `/api/links/${link.id}/stats`, `/api/links/${link.id}/qr`]) {
      const theirs = await call(outsider, { method: 'GET', url });
      expect(theirs.statusCode, url).toBe(404);
      expect(theirs.json().error.message).toBe(linkMessages.notFound);
    }
    const deleting = await call(outsider, { method: 'DELETE', url: `/api/links/${link.id}` });
    expect(deleting.statusCode).toBe(404);
    const bulk = await call(outsider, { method: 'POST', url: '/api/links/bulk-delete', payload: { ids: [link.id] } });
    expect(bulk.json()).toEqual({ deleted: 0 });
    // A member reading it from their personal workspace does not find it either.
    expect((await call(editor, { method: 'GET', url: `/api/links/${link.id}` })).statusCode).toBe(404);
    expect((await call(editor, { method: 'GET', url: `/api/links/${link.id}?workspace=equipo` })).statusCode).toBe(200);
  });

  it('filters the list by creator', async () => {
    const byOwner = await create(owner, 'Filtro de Olga');
    const byEditor = await create(editor, 'Filtro de Edu');
    const ofEditor = await list(viewer, `?workspace=equipo&createdBy=${editor.id}`);
    expect(ofEditor.links.every((link) => link.createdBy.id === editor.id)).toBe(true);
    expect(ofEditor.links.map((link) => link.id)).toContain(byEditor.id);
    expect(ofEditor.links.map((link) => link.id)).not.toContain(byOwner.id);
    const ofOwner = await list(viewer, `?workspace=equipo&createdBy=${owner.id}&q=filtro`);
    expect(ofOwner.links.map((link) => link.id)).toEqual([byOwner.id]);
    const bad = await call(viewer, { method: 'GET', url: '/api/links?workspace=equipo&createdBy=ana' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.createdBy).toEqual([linkMessages.createdByInvalid]);
  });

  it('records link creations, edits, pauses, deletions and imports in the activity list', async () => {
    const link = await create(editor, 'Con historia', '?workspace=equipo', { customUrl: 'con-historia' });
    await call(editor, { method: 'PATCH', url: `/api/links/${link.id}?workspace=equipo`, payload: { paused: true } });
    await call(editor, { method: 'PATCH', url: `/api/links/${link.id}?workspace=equipo`, payload: { title: 'Con historia 2', longUrl: 'https://example.com/otra' } });
    const other = await create(owner, 'Para el lote');
    const bulk = await call(owner, { method: 'POST', url: '/api/links/bulk-delete?workspace=equipo', payload: { ids: [link.id, other.id] } });
    expect(bulk.json()).toEqual({ deleted: 2 });
    const file = await multipart({
      file: { bytes: Buffer.from('title,longUrl\nUno,https://example.com/1\nDos,https://example.com/2\n'), filename: 'l.csv', type: 'text/csv' },
    });
    const imported = await call(editor, { method: 'POST', url: '/api/links/import?workspace=equipo', headers: file.headers, payload: file.payload });
    expect(imported.json()).toMatchObject({ created: 2 });

    const created = await activity('link.created');
    expect(created.find((entry) => entry.target === 'con-historia')).toMatchObject({ actor_id: editor.id, actor_name: 'Edu', detail: 'Con historia' });
    const edited = (await activity('link.edited')).filter((entry) => entry.target === 'con-historia');
    expect(edited.map((entry) => entry.detail)).toEqual(['paused', 'title, longUrl']);
    const deleted = (await activity('link.deleted')).filter((entry) => ['con-historia', other.shortCode].includes(entry.target));
    expect(deleted.map((entry) => [entry.target, entry.actor_name])).toEqual([
      ['con-historia', 'Olga'],
      [other.shortCode, 'Olga'],
    ]);
    // An import is one entry with its count, not one per row.
    const imports = await activity('links.imported');
    expect(imports.at(-1)).toMatchObject({ actor_id: editor.id, target: '2' });
    expect((await activity('link.created')).filter((entry) => entry.detail === 'Uno' || entry.detail === 'Dos')).toEqual([]);
  });

  it("makes a token in the workspace ?workspace= names: it acts there without the parameter and refuses another (403)", async () => {
    const made = await call(admin, { method: 'POST', url: '/api/tokens?workspace=equipo', payload: { name: 'Del equipo', scope: 'write' } });
    expect(made.statusCode, made.body).toBe(201);
    const { secret, token } = made.json() as { secret: string; token: ApiToken };
    expect(token.createdBy).toEqual({ id: admin.id, name: 'Adán' });

    const created = await t.app.inject({ method: 'POST', url: '/api/links', headers: bearer(secret), payload: { title: 'Por token', longUrl: 'https://example.com/t' } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().link).toMatchObject({ workspace: 'equipo', createdBy: { id: admin.id } });
    const listed = (await t.app.inject({ method: 'GET', url: '/api/links', headers: bearer(secret) })).json() as LinkList;
    expect(listed.links.map((link) => link.title)).toContain('Por token');
    expect((await t.app.inject({ method: 'GET', url: '/api/links?workspace=equipo', headers: bearer(secret) })).statusCode).toBe(200);
    for (const other of [await personalSlugOf(admin.id), 'no-existe']) {
      const refused = await t.app.inject({ method: 'GET', url: `/api/links?workspace=${other}`, headers: bearer(secret) });
      // Another workspace of the token's creator: 403 naming the reason; one they are not in: 404.
      expect(refused.statusCode, other).toBe(other === 'no-existe' ? 404 : 403);
      if (refused.statusCode === 403) expect(refused.json().error.message).toBe(workspaceMessages.tokenOtherWorkspace);
    }

    // Only admins and owners make, see and revoke a team workspace's tokens; each sees them all there.
    const byEditor = await call(editor, { method: 'POST', url: '/api/tokens?workspace=equipo', payload: { name: 'No', scope: 'read' } });
    expect(byEditor.statusCode).toBe(403);
    expect((await call(editor, { method: 'GET', url: '/api/tokens?workspace=equipo' })).statusCode).toBe(403);
    expect((await call(outsider, { method: 'GET', url: '/api/tokens?workspace=equipo' })).statusCode).toBe(404);
    const ownersView = (await call(owner, { method: 'GET', url: '/api/tokens?workspace=equipo' })).json().tokens as ApiToken[];
    expect(ownersView.map((listedToken) => listedToken.id)).toContain(token.id);
    // The personal list is one's own personal tokens, as the tokens screen has always shown.
    const personal = (await call(admin, { method: 'GET', url: '/api/tokens' })).json().tokens as ApiToken[];
    expect(personal.map((listedToken) => listedToken.id)).not.toContain(token.id);
    expect((await call(admin, { method: 'DELETE', url: `/api/tokens/${token.id}` })).statusCode).toBe(404);

    // A read token stays read-only, whatever its creator's role.
    const reader = (await call(owner, { method: 'POST', url: '/api/tokens?workspace=equipo', payload: { name: 'Lectura', scope: 'read' } })).json() as { secret: string };
    const write = await t.app.inject({ method: 'POST', url: '/api/links', headers: bearer(reader.secret), payload: { title: 'No', longUrl: 'https://example.com/no' } });
    expect(write.statusCode).toBe(403);
    expect(write.json().error.code).toBe('insufficient_scope');
  });

  it('stops a token whose creator is no longer a member of its workspace, and lets an owner revoke any', async () => {
    const leaving = await registerUser(t.app, { name: 'Lía' });
    await t.database.db.insertInto('workspace_members').values({ workspace_id: team.id, user_id: leaving.user.id, role: 'admin', joined_at: Date.now() }).execute();
    const { secret } = (await t.app.inject({
      method: 'POST',
      url: '/api/tokens?workspace=equipo',
      headers: { cookie: leaving.cookie, ...sameOrigin },
      payload: { name: 'Se irá', scope: 'write' },
    })).json() as { secret: string };
    expect((await t.app.inject({ method: 'GET', url: '/api/links', headers: bearer(secret) })).statusCode).toBe(200);

    await t.database.db.deleteFrom('workspace_members').where('workspace_id', '=', team.id).where('user_id', '=', leaving.user.id).execute();
    // At once, even while the token cache still knows the token.
    const refused = await t.app.inject({ method: 'GET', url: '/api/links', headers: bearer(secret) });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.message).toBe(tokenMessages.creatorNotMember);
    // And once the cache forgets it, at authentication.
    await t.app.appContext.tokenCache.forgetUser(leaving.user.id);
    const later = await t.app.inject({ method: 'GET', url: '/api/links?workspace=equipo', headers: bearer(secret) });
    expect(later.statusCode).toBe(401);
    expect(later.json().error.message).toBe(tokenMessages.creatorNotMember);

    const adminsToken = (await call(admin, { method: 'POST', url: '/api/tokens?workspace=equipo', payload: { name: 'Revocable', scope: 'read' } })).json() as { token: ApiToken; secret: string };
    expect((await call(owner, { method: 'DELETE', url: `/api/tokens/${adminsToken.token.id}?workspace=equipo` })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/api/links', headers: bearer(adminsToken.secret) })).statusCode).toBe(401);
  });

  it('documents ?workspace= on the routes that act in a workspace', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
    };
    const takes = (path: string, method: string) => (doc.paths[path]?.[method]?.parameters ?? []).some((p) => p.in === 'query' && p.name === 'workspace');
    for (const [path, method] of [['/api/links', 'get'], ['/api/links', 'post'], ['/api/links/{id}', 'patch'], ['/api/tags', 'get'], ['/api/links/{id}/stats', 'get'], ['/api/tokens', 'post']]) {
      expect(takes(path!, method!), `${method} ${path}`).toBe(true);
    }
    expect(takes('/api/tokens', 'delete')).toBe(false);
  });
});
