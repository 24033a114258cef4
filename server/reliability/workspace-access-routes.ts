// Which /api routes the workspace block of the access matrix checks (workspace-access-matrix.test.ts,
// with a column per role); access-matrix.test.ts checks every other route.

const WORKSPACE_ROUTE_PREFIXES = ['/api/workspaces', '/api/invites', '/api/admin/workspaces', '/api/domains', '/api/admin/domains', '/api/webhooks'];

/** A "METHOD /path" key of a route the workspace matrix covers. */
export function coveredByWorkspaceMatrix(key: string): boolean {
  const url = key.slice(key.indexOf(' ') + 1);
  return WORKSPACE_ROUTE_PREFIXES.some((prefix) => url === prefix || url.startsWith(`${prefix}/`));
}
