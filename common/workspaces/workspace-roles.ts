// Who may do what in a workspace: the table in docs/workspaces.md, in one place. The server asks it
// on every route (server/workspaces/workspace-access.ts); the web app asks it to hide or disable
// what a role may not do, and to say why.

export const workspaceRoles = ['viewer', 'editor', 'admin', 'owner'] as const;
export type WorkspaceRole = (typeof workspaceRoles)[number];

/**
 * What a caller may ask to do in a workspace, each allowed from one role up:
 * - read: links, tags, statistics, QR codes and exports (viewer);
 * - write: create, edit, pause, delete, import and bulk-change links and tags (editor);
 * - manage: members and invitations (not owners), domains, webhooks, the workspace's tokens (admin);
 * - own: rename, change the slug, delete the workspace, make and demote owners (owner).
 */
export const workspaceActions = ['read', 'write', 'manage', 'own'] as const;
export type WorkspaceAction = (typeof workspaceActions)[number];

const LEAST_ROLE: Record<WorkspaceAction, WorkspaceRole> = { read: 'viewer', write: 'editor', manage: 'admin', own: 'owner' };

const rank = (role: WorkspaceRole) => workspaceRoles.indexOf(role);

/** Whether `role` may do `action`. */
export function roleMay(role: WorkspaceRole, action: WorkspaceAction): boolean {
  return rank(role) >= rank(LEAST_ROLE[action]);
}

/** Whether `role` may give or take `target` to or from a member: owners only by owners. */
export function roleMayAssign(role: WorkspaceRole, target: WorkspaceRole): boolean {
  return target === 'owner' ? role === 'owner' : roleMay(role, 'manage');
}

export const roleLabels: Record<WorkspaceRole, string> = {
  viewer: 'Lector',
  editor: 'Editor',
  admin: 'Administrador',
  owner: 'Propietario',
};

/** Why a role may not do an action: shown beside a disabled control. */
export const roleMayNotReasons: Record<WorkspaceAction, string> = {
  read: 'No eres miembro de este espacio de trabajo.',
  write: 'Tu rol en este espacio es de lector: puedes ver los enlaces, no cambiarlos.',
  manage: 'Solo los administradores y propietarios del espacio pueden hacer esto.',
  own: 'Solo los propietarios del espacio pueden hacer esto.',
};
