import { workspaceMessages as m } from '@common/workspaces/workspace-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../admin/admin-test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { bearer, createTokenAs } from '../tokens/tokens.test-support';
import { addMember, createWorkspaceAs, linkIn, person, team } from './workspaces.test-support';

const roleOf = async (t: TestApp, workspaceId: number, userId: number) =>
  (await t.database.db.selectFrom('workspace_members').select('role').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst())?.role;

describe.each(testDialects)('workspace members and roles on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { LINKS_PER_HOUR: '0', AUTH_RATE_LIMIT_IP: '0', AUTH_RATE_LIMIT_EMAIL: '0' });
  });
  afterAll(async () => t?.close());

  it('lists the members to any member, with their role; 404 to anyone else', async () => {
    const { workspace, owner, admin, editor, viewer, outsider } = await team(t);
    const response = await call(t.app, viewer.cookie, 'GET', `/api/workspaces/${workspace.slug}/members`);
    expect(response.statusCode).toBe(200);
    const members = response.json().members;
    expect(members.map((member: { user: { id: number }; role: string }) => [member.user.id, member.role])).toEqual([
      [owner.id, 'owner'],
      [admin.id, 'admin'],
      [editor.id, 'editor'],
      [viewer.id, 'viewer'],
    ]);
    expect(members[0].user).toMatchObject({ name: owner.name, email: owner.email });
    expect(members[0].user.profileImage).toMatch(/^\/storage\/|^https?:\/\//);
    const outside = await call(t.app, outsider.cookie, 'GET', `/api/workspaces/${workspace.slug}/members`);
    expect(outside.statusCode).toBe(404);
    expect(outside.json().error.message).toBe(m.notFound);
  });

  it('refuses each action a role may not take with 403 and the reason in Spanish', async () => {
    const { workspace, owner, admin, editor, viewer } = await team(t);
    const base = `/api/workspaces/${workspace.slug}`;
    const refusals: Array<[string, Awaited<ReturnType<typeof call>>, string]> = [
      ['viewer changes a role', await call(t.app, viewer.cookie, 'PATCH', `${base}/members/${editor.id}`, { role: 'viewer' }), m.forbiddenRole],
      ['editor removes a member', await call(t.app, editor.cookie, 'DELETE', `${base}/members/${viewer.id}`), m.forbiddenRole],
      ['editor invites', await call(t.app, editor.cookie, 'POST', `${base}/invites`, { email: 'x@corto.test', role: 'viewer' }), m.forbiddenRole],
      ['viewer lists invitations', await call(t.app, viewer.cookie, 'GET', `${base}/invites`), m.forbiddenRole],
      ['admin makes an owner', await call(t.app, admin.cookie, 'PATCH', `${base}/members/${editor.id}`, { role: 'owner' }), m.ownerOnlyByOwner],
      ['admin demotes an owner', await call(t.app, admin.cookie, 'PATCH', `${base}/members/${owner.id}`, { role: 'editor' }), m.ownerOnlyByOwner],
      ['admin removes an owner', await call(t.app, admin.cookie, 'DELETE', `${base}/members/${owner.id}`), m.ownerOnlyByOwner],
      ['admin raises themselves', await call(t.app, admin.cookie, 'PATCH', `${base}/members/${admin.id}`, { role: 'owner' }), m.ownRole],
      ['admin invites an owner', await call(t.app, admin.cookie, 'POST', `${base}/invites`, { email: 'y@corto.test', role: 'owner' }), m.ownerOnlyByOwner],
      ['admin renames', await call(t.app, admin.cookie, 'PATCH', base, { name: 'Otro' }), m.forbiddenRole],
      ['editor raises themselves', await call(t.app, editor.cookie, 'PATCH', `${base}/members/${editor.id}`, { role: 'admin' }), m.forbiddenRole],
    ];
    for (const [what, response, message] of refusals) {
      expect(response.statusCode, `${what}: ${response.body}`).toBe(403);
      expect(response.json().error.message, what).toBe(message);
    }
    expect(await roleOf(t, workspace.id, admin.id)).toBe('admin');
    expect(await roleOf(t, workspace.id, editor.id)).toBe('editor');
    const badRole = await call(t.app, owner.cookie, 'PATCH', `${base}/members/${editor.id}`, { role: 'jefe' });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().error.fields.role).toEqual([m.roleInvalid]);
    const nobody = await call(t.app, owner.cookie, 'PATCH', `${base}/members/987654`, { role: 'viewer' });
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json().error.message).toBe(m.memberNotFound);
  });

  it('lets an admin change roles below owner and an owner make owners, recording each change', async () => {
    const { workspace, owner, admin, editor, viewer } = await team(t);
    const base = `/api/workspaces/${workspace.slug}`;
    const raised = await call(t.app, admin.cookie, 'PATCH', `${base}/members/${viewer.id}`, { role: 'editor' });
    expect(raised.statusCode, raised.body).toBe(200);
    expect(raised.json().member).toMatchObject({ user: { id: viewer.id }, role: 'editor' });
    const owned = await call(t.app, owner.cookie, 'PATCH', `${base}/members/${editor.id}`, { role: 'owner' });
    expect(owned.json().member.role).toBe('owner');
    const entries = (await call(t.app, viewer.cookie, 'GET', `${base}/activity`)).json().entries;
    expect(entries.slice(0, 2)).toMatchObject([
      { action: 'member.role_changed', actor: { id: owner.id }, target: editor.name, detail: 'editor → owner' },
      { action: 'member.role_changed', actor: { id: admin.id }, target: viewer.name, detail: 'viewer → editor' },
    ]);
  });

  it('keeps the last owner: they can neither be demoted nor leave, until another owns', async () => {
    const { workspace, owner, admin } = await team(t);
    const base = `/api/workspaces/${workspace.slug}`;
    const demote = await call(t.app, owner.cookie, 'PATCH', `${base}/members/${owner.id}`, { role: 'admin' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().error.message).toBe(m.lastOwner);
    const leave = await call(t.app, owner.cookie, 'DELETE', `${base}/members/${owner.id}`);
    expect(leave.statusCode).toBe(409);
    expect(leave.json().error.message).toBe(m.lastOwner);

    expect((await call(t.app, owner.cookie, 'PATCH', `${base}/members/${admin.id}`, { role: 'owner' })).statusCode).toBe(200);
    const stepDown = await call(t.app, owner.cookie, 'PATCH', `${base}/members/${owner.id}`, { role: 'editor' });
    expect(stepDown.statusCode, stepDown.body).toBe(200);
    expect(await roleOf(t, workspace.id, owner.id)).toBe('editor');
    const left = await call(t.app, owner.cookie, 'DELETE', `${base}/members/${owner.id}`);
    expect(left.statusCode).toBe(204);
    expect(await roleOf(t, workspace.id, owner.id)).toBeUndefined();
    expect((await call(t.app, owner.cookie, 'GET', `${base}/members`)).statusCode).toBe(404);
    const entry = (await call(t.app, admin.cookie, 'GET', `${base}/activity`)).json().entries[0];
    expect(entry).toMatchObject({ action: 'member.left', actor: { id: owner.id }, target: owner.name });
  });

  it('does not let a personal workspace lose its owner', async () => {
    const ana = await person(t.app);
    const [personal] = (await call(t.app, ana.cookie, 'GET', '/api/workspaces')).json().workspaces;
    const leave = await call(t.app, ana.cookie, 'DELETE', `/api/workspaces/${personal.slug}/members/${ana.id}`);
    expect(leave.statusCode).toBe(409);
    const demote = await call(t.app, ana.cookie, 'PATCH', `/api/workspaces/${personal.slug}/members/${ana.id}`, { role: 'viewer' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().error.message).toBe(m.lastOwner);
  });

  it('removes a member: they lose access and their tokens there stop; anyone may leave', async () => {
    const { workspace, owner, admin, editor, viewer } = await team(t);
    const base = `/api/workspaces/${workspace.slug}`;
    const token = await createTokenAs(t.app, editor.cookie, { name: 'Del equipo' });
    const elsewhere = await createTokenAs(t.app, editor.cookie, { name: 'Personal' });
    await t.database.db.updateTable('api_tokens').set({ workspace_id: workspace.id }).where('id', '=', token.token.id).execute();
    expect((await t.app.inject({ method: 'GET', url: '/api/links', headers: bearer(token.secret) })).statusCode).toBe(200);

    const removed = await call(t.app, admin.cookie, 'DELETE', `${base}/members/${editor.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await call(t.app, editor.cookie, 'GET', `${base}/members`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/links', headers: bearer(token.secret) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/links', headers: bearer(elsewhere.secret) })).statusCode).toBe(200);
    const again = await call(t.app, admin.cookie, 'DELETE', `${base}/members/${editor.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe(m.memberNotFound);

    expect((await call(t.app, viewer.cookie, 'DELETE', `${base}/members/${viewer.id}`)).statusCode).toBe(204);
    const entries = (await call(t.app, owner.cookie, 'GET', `${base}/activity`)).json().entries;
    expect(entries.slice(0, 2)).toMatchObject([
      { action: 'member.left', actor: { id: viewer.id }, target: viewer.name },
      { action: 'member.removed', actor: { id: admin.id }, target: editor.name },
    ]);
  });

  it.runIf(dialect === 'postgres')('never leaves a workspace without an owner when two owners step down at the same moment', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { workspace, owner, admin } = await team(t);
      await call(t.app, owner.cookie, 'PATCH', `/api/workspaces/${workspace.slug}/members/${admin.id}`, { role: 'owner' });
      const base = `/api/workspaces/${workspace.slug}/members`;
      // Each demotes the other, or leaves, at once: one must be refused.
      const answers = await Promise.all(
        round % 2 === 0
          ? [call(t.app, owner.cookie, 'PATCH', `${base}/${admin.id}`, { role: 'editor' }), call(t.app, admin.cookie, 'PATCH', `${base}/${owner.id}`, { role: 'editor' })]
          : [call(t.app, owner.cookie, 'DELETE', `${base}/${owner.id}`), call(t.app, admin.cookie, 'DELETE', `${base}/${admin.id}`)],
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses[0], answers.map((a) => a.body).join(' ')).toBeLessThan(300);
      expect([403, 409]).toContain(statuses[1]);
      const owners = await t.database.db
        .selectFrom('workspace_members')
        .select('user_id')
        .where('workspace_id', '=', workspace.id)
        .where('role', '=', 'owner')
        .execute();
      expect(owners).toHaveLength(1);
    }
  });

  it('refuses to delete the last owner of a team with members, naming it; hands created links over otherwise', async () => {
    const { workspace, owner, editor } = await team(t, 'Equipo Rubí');
    const leaving = await call(t.app, owner.cookie, 'DELETE', '/api/account', { password: owner.password });
    expect(leaving.statusCode).toBe(409);
    expect(leaving.json().error.message).toBe(m.lastOwnerOfTeams(['Equipo Rubí']));
    expect(leaving.json().error.message).toContain('«Equipo Rubí»');

    // The operator is refused too, in the operator's words.
    const operator = await person(t.app);
    await t.database.db.updateTable('users').set({ role: 'admin' }).where('id', '=', operator.id).execute();
    const byOperator = await call(t.app, operator.cookie, 'DELETE', `/api/admin/users/${owner.id}`);
    expect(byOperator.statusCode).toBe(409);
    expect(byOperator.json().error.message).toBe(m.userLastOwnerOfTeams(['Equipo Rubí']));

    // The editor's link stays with the team when the editor goes; the owner answers for it.
    const link = await linkIn(t, editor, workspace.id);
    const gone = await call(t.app, editor.cookie, 'DELETE', '/api/account', { password: editor.password });
    expect(gone.statusCode, gone.body).toBe(204);
    const row = await t.database.db.selectFrom('urls').select(['user_id', 'workspace_id']).where('id', '=', link.id).executeTakeFirst();
    expect(row && { user: Number(row.user_id), workspace: Number(row.workspace_id) }).toEqual({ user: owner.id, workspace: workspace.id });
    expect((await t.app.inject({ method: 'GET', url: `/${link.shortCode}` })).statusCode).toBe(302);
  });

  it('deletes a team workspace the account is alone in with the account, and its links', async () => {
    const ana = await person(t.app);
    const solo = await createWorkspaceAs(t.app, ana.cookie, { name: 'Solo yo' });
    const link = await linkIn(t, ana, solo.id);
    const other = await person(t.app);
    const shared = await createWorkspaceAs(t.app, other.cookie, { name: 'Compartido' });
    await addMember(t, shared.id, ana.id, 'owner');
    const gone = await call(t.app, ana.cookie, 'DELETE', '/api/account', { password: ana.password });
    expect(gone.statusCode, gone.body).toBe(204);
    expect(await t.database.db.selectFrom('workspaces').select('id').where('id', '=', solo.id).execute()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: `/${link.shortCode}` })).statusCode).toBe(404);
    expect(await roleOf(t, shared.id, other.id)).toBe('owner');
  });
});
