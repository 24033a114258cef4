import type { WorkspaceRole } from '@common/workspaces/workspace-roles';
import type { Workspace } from '@common/workspaces/workspace-schemas';
import type { FastifyInstance } from 'fastify';
import { call } from '../admin/admin-test-support';
import { createLinkAs } from '../links/links.test-support';
import type { TestApp } from '../test/test-app';
import { registerUser } from '../test/test-users';
import type { Database } from '../db/database';
import type { LinkActor } from '../links/link-actor';
import { personalWorkspaceIdOf } from './personal-workspace';

export interface Person {
  id: number;
  name: string;
  email: string;
  cookie: string;
  password: string;
}

let counter = 0;

/** A signed-up account, with its session cookie and password. */
export async function person(app: FastifyInstance, name?: string, email?: string): Promise<Person> {
  counter += 1;
  const label = name ?? `Persona ${counter}`;
  const { user, cookie, password } = await registerUser(app, { name: label, email: email ?? `persona-${counter}-${Date.now()}@corto.test` });
  return { id: user.id, name: user.name, email: user.email, cookie, password };
}

/** POST /api/workspaces that must succeed. */
export async function createWorkspaceAs(app: FastifyInstance, cookie: string, body: { name: string; slug?: string }): Promise<Workspace> {
  const response = await call(app, cookie, 'POST', '/api/workspaces', body);
  if (response.statusCode !== 201) throw new Error(`create workspace: ${response.statusCode} ${response.body}`);
  return response.json().workspace as Workspace;
}

/** A member added straight into the table (the invitation's path is tested on its own). */
export async function addMember(t: TestApp, workspaceId: number, userId: number, role: WorkspaceRole): Promise<void> {
  await t.database.db.insertInto('workspace_members').values({ workspace_id: workspaceId, user_id: userId, role, joined_at: Date.now() }).execute();
}

export interface Team {
  workspace: Workspace;
  owner: Person;
  admin: Person;
  editor: Person;
  viewer: Person;
  /** Signed in, member of nothing here. */
  outsider: Person;
}

/** A team workspace with one member of each role, and an outsider. */
export async function team(t: TestApp, name = `Equipo ${++counter}`): Promise<Team> {
  const owner = await person(t.app, `Dueña de ${name}`);
  const workspace = await createWorkspaceAs(t.app, owner.cookie, { name });
  const admin = await person(t.app, `Admin de ${name}`);
  const editor = await person(t.app, `Editor de ${name}`);
  const viewer = await person(t.app, `Lector de ${name}`);
  const outsider = await person(t.app, `Ajena a ${name}`);
  await addMember(t, workspace.id, admin.id, 'admin');
  await addMember(t, workspace.id, editor.id, 'editor');
  await addMember(t, workspace.id, viewer.id, 'viewer');
  return { workspace, owner, admin, editor, viewer, outsider };
}

/**
 * A link created by `creator` that belongs to the workspace: made through the API, then moved in
 * (link creation in a workspace is the links' routes' business, tested there).
 */
export async function linkIn(t: TestApp, creator: Person, workspaceId: number, payload: { customUrl?: string; title?: string } = {}) {
  const link = await createLinkAs(t.app, creator.cookie, { longUrl: 'https://example.com/equipo', ...payload });
  await t.database.db.updateTable('urls').set({ workspace_id: workspaceId }).where('id', '=', link.id).execute();
  return link;
}

/**
 * A team workspace written straight into the tables, with these members: for tests that need one
 * whatever the workspace routes do.
 */
export async function addTeamWorkspace(
  db: Database,
  { slug, name = slug, members }: { slug: string; name?: string; members: Array<{ userId: number; role: WorkspaceRole }> },
): Promise<{ id: number; slug: string }> {
  const now = Date.now();
  const { id } = await db.insertInto('workspaces').values({ slug, name, personal_user_id: null, created_at: now }).returning('id').executeTakeFirstOrThrow();
  if (members.length > 0) {
    await db
      .insertInto('workspace_members')
      .values(members.map(({ userId, role }) => ({ workspace_id: id, user_id: userId, role, joined_at: now })))
      .execute();
  }
  return { id: Number(id), slug };
}

/** A user acting in their personal workspace, as the links functions take them. */
export async function personalActor(db: Database, userId: number): Promise<LinkActor> {
  const workspace = await db.selectFrom('workspaces').select(['id', 'slug']).where('id', '=', await personalWorkspaceIdOf(db, userId)).executeTakeFirstOrThrow();
  const user = await db.selectFrom('users').select(['id', 'name']).where('id', '=', userId).executeTakeFirstOrThrow();
  return { workspace: { id: Number(workspace.id), slug: workspace.slug }, user: { id: Number(user.id), name: user.name } };
}
