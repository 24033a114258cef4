// Where a workspace lives in the app's addresses and in the API's. The personal workspace is the
// one nothing names (/dashboard, no ?workspace=), so every address and call of before still means it.

/** A workspace as the app addresses it: its slug, or null for the signed-in user's personal one. */
export type WorkspaceScope = string | null;

/** An API path with `?workspace=<slug>` added (nothing for the personal workspace). */
export function withWorkspace(path: string, scope: WorkspaceScope): string {
  if (scope === null) return path;
  const hashAt = path.indexOf('#');
  const [base, hash] = hashAt === -1 ? [path, ''] : [path.slice(0, hashAt), path.slice(hashAt)];
  const separator = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${separator}${new URLSearchParams({ workspace: scope })}${hash}`;
}

const segment = (slug: string) => `/w/${encodeURIComponent(slug)}`;

/** The workspace's dashboard: /dashboard for the personal one, /w/{slug} for any other. */
export function workspaceHomePath(scope: WorkspaceScope): string {
  return scope === null ? '/dashboard' : segment(scope);
}

/** A link's detail and statistics, inside the workspace it belongs to. */
export function workspaceLinkPath(scope: WorkspaceScope, linkId: number): string {
  return scope === null ? `/link/${linkId}` : `${segment(scope)}/link/${linkId}`;
}

/** The members page of a workspace. */
export const workspaceMembersPath = (slug: string) => `${segment(slug)}/miembros`;

/** The activity page of a workspace. */
export const workspaceActivityPath = (slug: string) => `${segment(slug)}/actividad`;

/** The domains page of a workspace: /cuenta/dominios for the personal one (as its tokens). */
export function workspaceDomainsPath(scope: WorkspaceScope): string {
  return scope === null ? '/cuenta/dominios' : `${segment(scope)}/dominios`;
}

export function workspaceWebhooksPath(scope: WorkspaceScope): string {
  return scope === null ? '/cuenta/webhooks' : `${segment(scope)}/webhooks`;
}

/** The invitation page an invitation's address opens. */
export const invitationPath = (token: string) => `/invitacion/${encodeURIComponent(token)}`;
