import { WORKSPACES_PER_USER, workspaceMessages as m } from '@common/workspaces/workspace-messages';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../admin/admin-test-support';
import { insertLink } from '../redirect/redirect.test-support';
import { redisReachable, testRedisUrl as redisUrl } from '../test/redis';
import { createTestApp, type TestApp, testDialects, createTwoInstancesOnRedis } from '../test/test-app';
import { deleteWorkspace } from './delete-workspace';
import { createWorkspaceAs, linkIn, person, team } from './workspaces.test-support';

describe.each(testDialects)('workspaces: create, list, rename, delete on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { LINKS_PER_HOUR: '0', AUTH_RATE_LIMIT_IP: '0', AUTH_RATE_LIMIT_EMAIL: '0' });
  });
  afterAll(async () => t?.close());

  it('lists the personal workspace first, then the teams by name, each with the caller\'s role', async () => {
    const ana = await person(t.app, 'Ana Lista');
    const zeta = await createWorkspaceAs(t.app, ana.cookie, { name: 'Zeta' });
    const alfa = await createWorkspaceAs(t.app, ana.cookie, { name: 'alfa' });
    const response = await call(t.app, ana.cookie, 'GET', '/api/workspaces');
    expect(response.statusCode).toBe(200);
    const list = response.json().workspaces;
    expect(list.map((w: { name: string }) => w.name)).toEqual(['Ana Lista', 'alfa', 'Zeta']);
    expect(list[0]).toMatchObject({ personal: true, role: 'owner' });
    expect(list.slice(1)).toEqual([alfa, zeta]);
    expect(alfa).toMatchObject({ slug: 'alfa', personal: false, role: 'owner' });
  });

  it('makes the slug from the name when none is given, free of namesakes', async () => {
    const ana = await person(t.app);
    const first = await createWorkspaceAs(t.app, ana.cookie, { name: 'Márketing Ñandú' });
    const second = await createWorkspaceAs(t.app, ana.cookie, { name: 'Márketing Ñandú' });
    expect(first.slug).toBe('marketing-nandu');
    expect(second.slug).toBe('marketing-nandu-2');
  });

  it('refuses a taken slug whatever its case, a reserved one and a malformed one, in Spanish', async () => {
    const ana = await person(t.app);
    await createWorkspaceAs(t.app, ana.cookie, { name: 'Ventas', slug: 'ventas-sur' });
    const taken = await call(t.app, ana.cookie, 'POST', '/api/workspaces', { name: 'Otro', slug: 'Ventas-SUR' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({ message: m.slugTaken, fields: { slug: [m.slugTaken] } });
    const reserved = await call(t.app, ana.cookie, 'POST', '/api/workspaces', { name: 'Otro', slug: 'admin' });
    expect(reserved.statusCode).toBe(400);
    expect(reserved.json().error.fields.slug).toEqual([m.slugReserved]);
    for (const slug of ['a', '-abc', 'dos--guiones', 'acentuación', 'x'.repeat(41)]) {
      const bad = await call(t.app, ana.cookie, 'POST', '/api/workspaces', { name: 'Otro', slug });
      expect(bad.statusCode, slug).toBe(400);
      expect(bad.json().error.fields.slug, slug).toEqual([m.slugInvalid]);
    }
    const noName = await call(t.app, ana.cookie, 'POST', '/api/workspaces', { name: '  ' });
    expect(noName.json().error.fields.name).toEqual([m.nameRequired]);
    const unknown = await call(t.app, ana.cookie, 'POST', '/api/workspaces', { name: 'X y Z', personal: true });
    expect(unknown.statusCode).toBe(400);
    const upper = await createWorkspaceAs(t.app, ana.cookie, { name: 'Mayúsculas', slug: 'MAYUS' });
    expect(upper.slug).toBe('mayus');
  });

  it(`lets one account own at most ${WORKSPACES_PER_USER} team workspaces`, async () => {
    const ana = await person(t.app);
    for (let n = 0; n < WORKSPACES_PER_USER; n += 1) await createWorkspaceAs(t.app, ana.cookie, { name: `Equipo límite ${n}` });
    const over = await call(t.app, ana.cookie, 'POST', '/api/workspaces', { name: 'Uno más' });
    expect(over.statusCode).toBe(409);
    expect(over.json().error.message).toBe(m.tooMany);
  });

  it('renames and changes the slug (owners only), and the old slug no longer answers', async () => {
    const { workspace, owner, admin, outsider } = await team(t);
    const byAdmin = await call(t.app, admin.cookie, 'PATCH', `/api/workspaces/${workspace.slug}`, { name: 'Nuevo' });
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().error.message).toBe(m.forbiddenRole);
    const byOutsider = await call(t.app, outsider.cookie, 'PATCH', `/api/workspaces/${workspace.slug}`, { name: 'Nuevo' });
    expect(byOutsider.statusCode).toBe(404);
    expect(byOutsider.json().error.message).toBe(m.notFound);

    const renamed = await call(t.app, owner.cookie, 'PATCH', `/api/workspaces/${workspace.slug.toUpperCase()}`, { name: 'Renombrado', slug: 'renombrado-x' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().workspace).toMatchObject({ id: workspace.id, name: 'Renombrado', slug: 'renombrado-x', role: 'owner' });
    expect((await call(t.app, owner.cookie, 'GET', `/api/workspaces/${workspace.slug}/members`)).statusCode).toBe(404);
    expect((await call(t.app, owner.cookie, 'GET', '/api/workspaces/renombrado-x/members')).statusCode).toBe(200);

    const other = await createWorkspaceAs(t.app, owner.cookie, { name: 'Otro equipo' });
    const clash = await call(t.app, owner.cookie, 'PATCH', `/api/workspaces/${other.slug}`, { slug: 'Renombrado-X' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error.message).toBe(m.slugTaken);

    const activity = await call(t.app, owner.cookie, 'GET', '/api/workspaces/renombrado-x/activity');
    expect(activity.json().entries[0]).toMatchObject({
      action: 'workspace.renamed',
      actor: { id: owner.id, name: owner.name },
      target: 'Renombrado',
      detail: `«${workspace.name}» → «Renombrado» · ${workspace.slug} → renombrado-x`,
    });
  });

  it('renames a personal workspace, and never deletes one', async () => {
    const ana = await person(t.app, 'Ana Personal');
    const [personal] = (await call(t.app, ana.cookie, 'GET', '/api/workspaces')).json().workspaces;
    const renamed = await call(t.app, ana.cookie, 'PATCH', `/api/workspaces/${personal.slug}`, { name: 'Lo mío' });
    expect(renamed.json().workspace).toMatchObject({ name: 'Lo mío', personal: true });
    const deleted = await call(t.app, ana.cookie, 'DELETE', `/api/workspaces/${personal.slug}`, { password: ana.password });
    expect(deleted.statusCode).toBe(409);
    expect(deleted.json().error.message).toBe(m.personalNotDeletable);
  });

  it('deletes a team workspace with the password: its links stop at once, its tokens and rows go', async () => {
    const { workspace, owner, admin, editor } = await team(t);
    const link = await linkIn(t, editor, workspace.id, { customUrl: `enlace-${dialect}-borrable` });
    expect((await t.app.inject({ method: 'GET', url: `/${link.shortCode}` })).statusCode).toBe(302);
    expect((await t.app.inject({ method: 'GET', url: `/enlace-${dialect}-borrable` })).statusCode).toBe(302);

    const byAdmin = await call(t.app, admin.cookie, 'DELETE', `/api/workspaces/${workspace.slug}`, { password: admin.password });
    expect(byAdmin.statusCode).toBe(403);
    const wrong = await call(t.app, owner.cookie, 'DELETE', `/api/workspaces/${workspace.slug}`, { password: 'no-es-esta' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.password).toHaveLength(1);

    const deleted = await call(t.app, owner.cookie, 'DELETE', `/api/workspaces/${workspace.slug}`, { password: owner.password });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/${link.shortCode}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/enlace-${dialect}-borrable` })).statusCode).toBe(404);
    const { db } = t.database;
    expect(await db.selectFrom('urls').select('id').where('id', '=', link.id).execute()).toEqual([]);
    expect(await db.selectFrom('workspace_members').select('user_id').where('workspace_id', '=', workspace.id).execute()).toEqual([]);
    expect(await db.selectFrom('workspace_activity').select('id').where('workspace_id', '=', workspace.id).execute()).toEqual([]);
    // Its addresses are held: nobody takes the alias the printed links still carry.
    const retake = await call(t.app, editor.cookie, 'POST', '/api/links', { title: 'x', longUrl: 'https://example.com/', customUrl: `enlace-${dialect}-borrable` });
    expect(retake.statusCode).toBe(409);
    const list = (await call(t.app, editor.cookie, 'GET', '/api/workspaces')).json().workspaces;
    expect(list.map((w: { id: number }) => w.id)).not.toContain(workspace.id);
  });

  it('records the creation in the activity, newest first, a page at a time', async () => {
    const { workspace, owner, viewer, outsider } = await team(t);
    for (const name of ['Uno', 'Dos', 'Tres']) {
      await call(t.app, owner.cookie, 'PATCH', `/api/workspaces/${workspace.slug}`, { name });
    }
    const first = await call(t.app, viewer.cookie, 'GET', `/api/workspaces/${workspace.slug}/activity?limit=2`);
    expect(first.statusCode).toBe(200);
    const page = first.json();
    expect(page.entries.map((e: { target: string }) => e.target)).toEqual(['Tres', 'Dos']);
    expect(page.nextCursor).not.toBeNull();
    const second = (await call(t.app, viewer.cookie, 'GET', `/api/workspaces/${workspace.slug}/activity?limit=2&cursor=${page.nextCursor}`)).json();
    expect(second.entries.map((e: { action: string; target: string }) => [e.action, e.target])).toEqual([
      ['workspace.renamed', 'Uno'],
      ['workspace.created', workspace.name],
    ]);
    expect(second.nextCursor).toBeNull();
    expect(second.entries[1]).toMatchObject({ actor: { id: owner.id, name: owner.name }, detail: null });
    expect(new Date(second.entries[1].at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect((await call(t.app, outsider.cookie, 'GET', `/api/workspaces/${workspace.slug}/activity`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/workspaces/${workspace.slug}/activity` })).statusCode).toBe(401);
  });
});

const hasRedis = await redisReachable(redisUrl);

describe.runIf(hasRedis).each(testDialects)('a workspace deleted, across instances, on %s', (dialect) => {
  let one: TestApp;
  let two: TestApp;
  beforeEach(async () => {
    [one, two] = await createTwoInstancesOnRedis(dialect, redisUrl);
  });
  afterEach(async () => {
    await one?.close();
    await two?.close();
  });

  it("drops its links' addresses from the other instance's cache at once", async () => {
    // Each test app has its own database; the same code in both stands for one shared link.
    const { workspace, editor } = await team(one);
    const link = await linkIn(one, editor, workspace.id, { customUrl: `equipo-${Date.now().toString(36)}` });
    const onTwo = await insertLink(two.database.db, { shortUrl: link.shortCode, customUrl: link.customUrl });
    expect((await two.app.inject({ method: 'GET', url: `/${link.shortCode}` })).statusCode).toBe(302);
    expect(two.app.appContext.linkCache.peek(link.shortCode)).toBeDefined();

    // The row goes from the second database as the shared one would; only the first instance deletes.
    await two.database.db.deleteFrom('urls').where('id', '=', onTwo.id).execute();
    expect(await deleteWorkspace(one.app.appContext, workspace.id)).toMatchObject({ id: workspace.id, links: 1 });

    await expect.poll(() => two.app.appContext.linkCache.peek(link.shortCode), { timeout: 2000 }).toBeUndefined();
    expect((await two.app.inject({ method: 'GET', url: `/${link.customUrl}` })).statusCode).toBe(404);
  });
});
