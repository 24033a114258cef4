import { workspaceMessages as m } from '@common/workspaces/workspace-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerAdmin } from '../admin/admin-test-support';
import { agents } from '../redirect/redirect.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { linkIn, person, team } from './workspaces.test-support';

describe.each(testDialects)("the operator's workspaces on %s", (dialect) => {
  let t: TestApp;
  let admin: { cookie: string };
  beforeAll(async () => {
    t = await createTestApp(dialect, { LINKS_PER_HOUR: '0', AUTH_RATE_LIMIT_IP: '0', AUTH_RATE_LIMIT_EMAIL: '0' });
    admin = await registerAdmin(t);
  });
  afterAll(async () => t?.close());

  it('lists workspaces with their members, links and clicks, searched by name or slug, page by page', async () => {
    const { workspace, editor } = await team(t, `Turquesa ${dialect}`);
    const link = await linkIn(t, editor, workspace.id);
    const visit = await t.app.inject({ method: 'GET', url: `/${link.shortCode}`, headers: { 'user-agent': agents.iphone } });
    expect(visit.statusCode).toBe(302);
    await t.app.appContext.clickWriter.flush();

    const found = await call(t.app, admin.cookie, 'GET', '/api/admin/workspaces?q=TURQUESA');
    expect(found.statusCode).toBe(200);
    // The team, and its members' personal workspaces named after them ('Dueña de Turquesa...').
    const list = found.json().workspaces as Array<{ id: number; name: string; personal: boolean }>;
    expect(list.find((w) => w.id === workspace.id)).toEqual({
      id: workspace.id, slug: workspace.slug, name: workspace.name, personal: false, members: 4, links: 1, clicks: 1, createdAt: expect.any(String),
    });
    expect(list.every((w) => w.name.includes('Turquesa'))).toBe(true);
    expect(list.filter((w) => !w.personal)).toHaveLength(1);
    expect(found.json().nextCursor).toBeNull();
    const bySlug = (await call(t.app, admin.cookie, 'GET', `/api/admin/workspaces?q=${workspace.slug}`)).json();
    expect(bySlug.workspaces.map((w: { id: number }) => w.id)).toContain(workspace.id);
    const nothing = (await call(t.app, admin.cookie, 'GET', '/api/admin/workspaces?q=100%25_')).json();
    expect(nothing.workspaces).toEqual([]);

    for (let n = 0; n < 8; n += 1) await person(t.app);
    const first = (await call(t.app, admin.cookie, 'GET', '/api/admin/workspaces')).json();
    expect(first.workspaces.length).toBeGreaterThan(0);
    expect(first.workspaces.some((w: { personal: boolean }) => w.personal)).toBe(true);
    const user = await person(t.app);
    expect((await call(t.app, user.cookie, 'GET', '/api/admin/workspaces')).statusCode).toBe(403);
  });

  it('deletes a team workspace, its links stop, and the audit log says so; a personal one is refused', async () => {
    const { workspace, editor, owner } = await team(t, `Carmín ${dialect}`);
    const link = await linkIn(t, editor, workspace.id);
    expect((await t.app.inject({ method: 'GET', url: `/${link.shortCode}` })).statusCode).toBe(302);
    const deleted = await call(t.app, admin.cookie, 'DELETE', `/api/admin/workspaces/${workspace.id}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/${link.shortCode}` })).statusCode).toBe(404);
    expect((await call(t.app, owner.cookie, 'GET', `/api/workspaces/${workspace.slug}/members`)).statusCode).toBe(404);
    const audit = (await call(t.app, admin.cookie, 'GET', '/api/admin/audit')).json();
    expect(audit.entries[0]).toMatchObject({ action: 'workspace.delete', target: workspace.slug });

    const again = await call(t.app, admin.cookie, 'DELETE', `/api/admin/workspaces/${workspace.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe(m.notFound);
    const personal = await t.database.db.selectFrom('workspaces').select('id').where('personal_user_id', '=', owner.id).executeTakeFirstOrThrow();
    const refused = await call(t.app, admin.cookie, 'DELETE', `/api/admin/workspaces/${personal.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(m.personalDeletedWithAccount);
  });
});
